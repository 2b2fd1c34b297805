import FeedStore
import Foundation

/// A PostgreSQL connection as the store's jobs written once for every driver use it
/// (``SQLConnection``): `?` parameters numbered, every value sent and read as text, bytes in
/// `bytea`'s hex form.
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments)).changed
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        let rows = try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments))
        let width = rows.columns.count
        return (0..<rows.count).map { row in (0..<width).map { SQLValue(rows[row, $0]) } }
    }

    func bytes(_ sql: String, _ arguments: [SQLValue]) throws -> Data? {
        let rows = try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments))
        return rows.count > 0 ? rows[0, 0].flatMap(Hex.bytea) : nil
    }

    private static func parameters(_ arguments: [SQLValue]) -> [String?] {
        arguments.map { argument in
            if case .bytes(let data) = argument { Hex.bytea(data) } else { argument.text }
        }
    }
}

extension PostgresStore: SQLDatabase {
    /// Workers on many machines share the store.
    package var capabilities: StoreCapabilities { StoreCapabilities(sharedByMachines: true) }

    /// ``markInterruptedRuns()`` for the runs of `feeds` only: a worker claiming feeds takes
    /// over what a dead worker left of them.
    package func takeOverRuns(of feeds: [String], in connection: any SQLConnection) throws {
        try Self.markInterruptedRuns(of: feeds, schema: schema, in: connection)
    }

    package func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await read { try body(PostgresSQLConnection(connection: $0)) }
    }

    package func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await write { try body(PostgresSQLConnection(connection: $0)) }
    }
}
