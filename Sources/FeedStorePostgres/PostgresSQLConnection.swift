import FeedStore
import Foundation

/// A PostgreSQL connection as the store's jobs written once for every driver use it
/// (``SQLConnection``): `?` parameters numbered, every value sent and read as text, bytes in
/// `bytea`'s hex form (a `bytea` column reads back as ``SQLValue/bytes(_:)``, as a BLOB does on
/// SQLite).
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments)).changed
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        let rows = try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments))
        let byteColumns = (0..<rows.columns.count).map { rows.typeOID(ofColumn: $0) == Self.byteaOID }
        return (0..<rows.count).map { row in
            byteColumns.indices.map { column in
                guard byteColumns[column] else { return SQLValue(rows[row, column]) }
                return rows[row, column].flatMap(Hex.bytea).map(SQLValue.bytes) ?? .null
            }
        }
    }

    func bytes(_ sql: String, _ arguments: [SQLValue]) throws -> Data? {
        let rows = try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments))
        return rows.count > 0 ? rows[0, 0].flatMap(Hex.bytea) : nil
    }

    /// `bytea`'s type (its `pg_type.oid`).
    private static let byteaOID: UInt32 = 17

    private static func parameters(_ arguments: [SQLValue]) -> [String?] {
        arguments.map { argument in
            if case .bytes(let data) = argument { Hex.bytea(data) } else { argument.text }
        }
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
