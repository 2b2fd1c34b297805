import FeedKit
import FeedStore
import GRDB

/// What is done to a store file outside any pass, for tests (`StoreFactory`'s maintenance).
extension SQLiteStore {
    /// Runs `sql` (one statement or several) in one transaction on the store file at `path`,
    /// outside any pass and on a connection of its own, waiting up to `wait` for the file's
    /// lock (a pass may still be closing the store): for tests that damage or age what a pass
    /// left. Nothing is checked or migrated first.
    ///
    /// - Throws: ``StoreError`` naming the file when a statement fails.
    package static func execute(_ sql: String, inStoreAt path: String, wait: FeedDuration) async throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(wait.seconds)
        do {
            try await DatabaseQueue(path: path, configuration: configuration).write { try $0.execute(sql: sql) }
        } catch {
            throw StoreError(sqlite: path, error)
        }
    }
}
