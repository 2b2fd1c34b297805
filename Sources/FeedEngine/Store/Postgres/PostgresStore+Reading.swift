/// The PostgreSQL store as the reading commands use it (``StoreReading``).
extension PostgresStore: StoreReading {
    var dialect: any SQLDialect { PostgresDialect() }

    /// Runs `body` in one read-only `REPEATABLE READ` transaction.
    func exportSnapshot<T>(_ body: (any ExportSnapshot) throws -> T) throws -> T {
        try snapshot { try body(PostgresSnapshot(connection: $0)) }
    }
}
