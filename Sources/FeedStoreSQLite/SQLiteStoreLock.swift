import FeedKit
import FeedStore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a store for one `feedwork run` at a time: a `flock` on the store file
/// itself, so it belongs to the file (its device and inode), not to the name it is reached by.
/// A run through a symlink or a hard link to the store waits for, or is refused by, a run
/// through any other name.
///
/// Readers (`export`, `list`) do not take it: WAL lets them read while a run writes. The lock is
/// released when the process exits, even when it is killed.
///
/// `flock` locks are separate from the POSIX locks SQLite takes on the same file. Closing any
/// descriptor of the file would drop SQLite's POSIX locks in this process, so the lock's
/// descriptor is unlocked on release and kept open while its file exists. Once the file is
/// deleted no other process can open it, and those locks guard nothing: the descriptor is closed
/// then, at the next lock taken or released (``ReleasedDescriptors``). A `feedwork` command
/// takes one lock; a process that opens many stores in turn would otherwise hold a descriptor
/// for each until it exits (the test suite held 771, of deleted stores, at one moment).
public final class SQLiteStoreLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, creating an empty store file when there is none, waiting up to `wait`
    /// for another run to finish.
    ///
    /// - Throws: ``StoreError`` "store in use" when the wait runs out, or when the store file
    ///   cannot be opened for writing (a folder, a read-only file).
    public init(storePath: String, wait: FeedDuration) throws {
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: storePath).deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(storePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(
                path: storePath, message: "cannot open the store for writing: \(String(cString: strerror(errno)))")
        }
        ReleasedDescriptors.closeDeleted()
        let deadline = Date().addingTimeInterval(wait.seconds)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                let holder = StoreHolder.recorded(forStore: storePath)?.description
                throw StoreError(
                    path: storePath,
                    message: "store in use: "
                        + (holder.map { "\($0) holds it" }
                            ?? "another feedwork process holds it, possibly through another name")
                        + " (waited \(wait); use --wait to wait longer)")
            }
            usleep(50_000)
        }
        self.descriptor = descriptor
    }

    /// Unlocks; the descriptor stays open until its file is deleted (see the type's notes).
    deinit {
        flock(descriptor, LOCK_UN)
        ReleasedDescriptors.keep(descriptor)
    }
}

/// The descriptors of released store locks, each open until its file is deleted
/// (``SQLiteStoreLock``).
enum ReleasedDescriptors {
    private static let open = Mutex<[Int32]>([])

    /// Keeps `descriptor`, and closes those whose file is deleted.
    static func keep(_ descriptor: Int32) {
        open.withLock { descriptors in
            descriptors.append(descriptor)
            closeDeleted(&descriptors)
        }
    }

    /// Closes the kept descriptors whose file is deleted.
    static func closeDeleted() {
        open.withLock { closeDeleted(&$0) }
    }

    /// The descriptors kept now, for tests.
    static var kept: [Int32] { open.withLock { $0 } }

    private static func closeDeleted(_ descriptors: inout [Int32]) {
        descriptors.removeAll { descriptor in
            var status = stat()
            // Not open any more: nothing to close.
            guard fstat(descriptor, &status) == 0 else { return true }
            guard status.st_nlink == 0 else { return false }
            close(descriptor)
            return true
        }
    }
}
