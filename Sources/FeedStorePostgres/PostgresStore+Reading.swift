import FeedStore

/// The PostgreSQL store as the reading commands use it (``StoreReading``).
extension PostgresStore: StoreReading {
    package var dialect: any SQLDialect { PostgresDialect() }

    /// Runs `body` in one read-only `REPEATABLE READ` transaction, on the reader thread.
    package func exportSnapshot<T: Sendable>(_ body: @escaping @Sendable (any ExportSnapshot) throws -> T) async throws
        -> T
    {
        try await snapshot { try body(PostgresSnapshot(connection: $0)) }
    }
}
