import FeedKit
import FeedStore
import Foundation

extension SQLiteStore: StoreDriver {
    package var location: String { path }
    package var file: String? { path }
    package var holdsExclusiveLock: Bool { holdsLock }

    /// None: the engine holds the store's lock (``SQLiteStoreLock``) for the whole run.
    package func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject? { nil }

    /// Closes the readers' connections, then the writer's, on the writer thread. The last
    /// connection to close checkpoints the write-ahead log into the file and deletes it; a
    /// process that ends with its connections open leaves the log (24 MB after W1's 100,000
    /// rows), which the next process to open the store reads whole before its first statement.
    package func close() async throws {
        let (pool, path) = (self.pool, self.path)
        try await writer.perform {
            pool.releaseMemory()
            do {
                try pool.close()
            } catch {
                throw StoreError(sqlite: path, error)
            }
        }
    }

    /// Drops `target` in one transaction (``StoreDrop``), and a dropped feed's sealed
    /// credentials from the journal; returns what was removed.
    package func drop(_ target: DropTarget) async throws -> String {
        let dialect = self.dialect
        let dropped = try await writeSQL { try StoreDrop.drop(target, on: $0, dialect: dialect) }
        if case .feed(let feed) = target { try credentialJournal.forgetAll(feed: feed) }
        return dropped
    }
}
