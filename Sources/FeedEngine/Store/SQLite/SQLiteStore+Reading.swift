import GRDB

/// The SQLite store as the reading commands use it (``StoreReading``).
extension SQLiteStore: StoreReading {
    var dialect: any SQLDialect { SQLiteDialect() }

    /// Runs `body` in one read transaction; errors of the export itself pass through unwrapped.
    func exportSnapshot<T>(_ body: (any ExportSnapshot) throws -> T) throws -> T {
        do {
            return try pool.read { try body(SQLiteSnapshot(db: $0)) }
        } catch let error as DatabaseError {
            throw StoreError(path: path, error)
        }
    }
}
