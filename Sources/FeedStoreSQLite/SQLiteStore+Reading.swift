import FeedStore
import GRDB

/// The SQLite store as the reading commands use it (``StoreReading``).
extension SQLiteStore: StoreReading {
    package var dialect: any SQLDialect { SQLiteDialect() }

    /// Runs `body` in one read transaction; errors of the export itself pass through unwrapped.
    package func exportSnapshot<T: Sendable>(_ body: @escaping @Sendable (any ExportSnapshot) throws -> T)
        async throws -> T
    {
        do {
            return try await pool.read { try body(SQLiteSnapshot(db: $0)) }
        } catch let error as DatabaseError {
            throw StoreError(path: path, error)
        }
    }
}
