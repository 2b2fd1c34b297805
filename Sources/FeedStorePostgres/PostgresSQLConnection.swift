import FeedStore

/// A PostgreSQL connection as the store's jobs written once for every driver use it
/// (``SQLConnection``): `?` parameters numbered, every value sent and read as text.
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try connection.execute(PostgresDialect().numbered(sql), arguments.map(\.text)).changed
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        let rows = try connection.execute(PostgresDialect().numbered(sql), arguments.map(\.text))
        let width = rows.columns.count
        return (0..<rows.count).map { row in (0..<width).map { SQLValue(rows[row, $0]) } }
    }
}

extension PostgresStore: SQLDatabase {
    package func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await read { try body(PostgresSQLConnection(connection: $0)) }
    }

    package func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await write { try body(PostgresSQLConnection(connection: $0)) }
    }
}
