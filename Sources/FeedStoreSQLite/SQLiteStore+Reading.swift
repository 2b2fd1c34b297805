import FeedKit
import FeedStore
import GRDB

/// The SQLite store as the reading commands use it (``StoreReading``).
extension SQLiteStore: StoreReading {
    package var dialect: any SQLDialect { SQLiteDialect() }

    /// Runs `body` in one read transaction (a snapshot: SQLite's write-ahead log keeps what it
    /// began with); errors of `body`'s own pass through unwrapped.
    package func snapshotSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T)
        async throws -> T
    {
        let path = path
        do {
            return try await pool.read { try body(SQLiteSQLConnection(db: $0, location: path)) }
        } catch let error as DatabaseError {
            throw StoreError(sqlite: path, error)
        }
    }
}
