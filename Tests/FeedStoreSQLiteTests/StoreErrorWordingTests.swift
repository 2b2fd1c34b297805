import FeedStore
import Foundation
import Testing

@testable import FeedStoreSQLite

/// A driver's library errors reach the user in the driver's own words, through the shared
/// ``StoreError``, which knows no database library.
@Suite("store error wording")
struct StoreErrorWordingTests {
    @Test func aFileThatIsNotAnSQLiteDatabaseIsRefusedWithSQLitesCodeAndReason() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedwork-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        try Data(String(repeating: "not a database, only text. ", count: 200).utf8).write(
            to: URL(fileURLWithPath: path))

        let error = try #require(throws: StoreError.self) { try SQLiteStore(path: path) }
        #expect(error.path == path)
        #expect(error.message == "SQLite error 26: file is not a database", "\(error)")
    }
}
