import FeedStore

/// The PostgreSQL store as the reading commands use it (``StoreReading``).
extension PostgresStore: StoreReading {
    package var dialect: any SQLDialect { PostgresDialect() }

    /// Runs `body` in one read-only `REPEATABLE READ` transaction, on the reader thread: every
    /// statement sees the same data.
    package func snapshotSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T)
        async throws -> T
    {
        try await read { connection in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { _ = try? connection.execute("COMMIT") }
            return try body(PostgresSQLConnection(connection: connection))
        }
    }
}
