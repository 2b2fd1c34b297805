import FeedKit
import Foundation
import Testing

@testable import FeedStoreSQLite

/// A released store lock keeps its descriptor while the store file exists (closing it would drop
/// SQLite's locks on the file in this process), and closes it once the file is deleted.
@Suite struct SQLiteStoreLockTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-lock-\(UUID().uuidString)")

    /// The file descriptor `descriptor` refers to, as `/proc/self/fd` names it, or `nil` when it
    /// is closed.
    static func target(of descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    /// Takes and releases a lock on `path`: the descriptor it kept.
    static func takeAndRelease(_ path: String) throws -> Int32 {
        do { _ = try SQLiteStoreLock(storePath: path, wait: .seconds(5)) }
        // Found by its file, which is this test's own: a number can be reused once closed.
        let kept = try #require(
            ReleasedDescriptors.kept.first { target(of: $0) == path }, "the released lock's descriptor is kept")
        return kept
    }

    @Test func aReleasedLockKeepsItsDescriptorWhileTheStoreFileExists() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("feeds.sqlite").path
        let descriptor = try Self.takeAndRelease(path)
        // Another lock taken and released sweeps the kept descriptors.
        _ = try Self.takeAndRelease(folder.appendingPathComponent("other.sqlite").path)
        #expect(Self.target(of: descriptor) == path)
        #expect(ReleasedDescriptors.kept.contains(descriptor))
    }

    @Test func aReleasedLockClosesItsDescriptorOnceTheStoreFileIsDeleted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("feeds.sqlite").path
        let descriptor = try Self.takeAndRelease(path)
        try FileManager.default.removeItem(atPath: path)
        #expect(Self.target(of: descriptor) == path + " (deleted)")
        _ = try Self.takeAndRelease(folder.appendingPathComponent("other.sqlite").path)
        // Closed, or its number taken since by another file.
        #expect(Self.target(of: descriptor) != path + " (deleted)")
    }
}
