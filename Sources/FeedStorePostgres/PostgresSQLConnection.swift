import FeedKit
import FeedStore
import Foundation

/// A PostgreSQL connection as the store's jobs written once for every driver use it
/// (``SQLConnection``): `?` parameters numbered, every value sent and read as text, bytes in
/// `bytea`'s hex form (a `bytea` column reads back as ``SQLValue/bytes(_:)``, as a BLOB does on
/// SQLite). Its edits of entity tables are ``PostgresEntityTable``'s, ``PostgresEntityView``'s
/// and ``PostgresSearchIndex``'s, in the connection's schema.
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection

    var location: String { connection.location }

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

    func ensureTables(_ schema: EntitySchema, keyed: Bool) throws {
        try PostgresEntityTable.ensure(schema, keyed: keyed, in: connection)
    }

    func convert(
        _ column: String, of table: String, in schema: EntitySchema, to type: ColumnType, expression: String
    ) throws {
        try PostgresEntityTable.convert(column, of: table, to: type, expression: expression, in: connection)
    }

    func setForeignKeys(_ schema: EntitySchema) throws {
        try PostgresEntityTable.setForeignKeys(schema, in: connection)
    }

    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws {
        try PostgresEntityView.ensure(schema, schemas: schemas, in: connection)
    }

    func ensureSearch(_ schema: EntitySchema) throws { try PostgresSearchIndex.ensure(schema, in: connection) }

    func dropColumn(_ column: String, of table: String) throws {
        try connection.execute(
            "ALTER TABLE \(try qualified(table)) DROP COLUMN \(PostgresSQL.identifier(column))")
    }

    /// Its full-text index is an index of the table, which goes with it.
    func dropTable(_ table: String) throws {
        try connection.execute("DROP TABLE IF EXISTS \(try qualified(table))")
    }

    func dropView(of entity: String) throws { try PostgresEntityView.drop(of: entity, in: connection) }

    /// `table` in the connection's schema, as the statements that change or drop a table name it
    /// (``PostgresSQL/qualified(_:in:)``).
    private func qualified(_ table: String) throws -> String {
        PostgresSQL.qualified(table, in: try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? "")
    }

    /// Fetches the rows through a cursor, a thousand at a time, so memory stays flat; each
    /// column's text read as `types` says (``PostgresValue/field(_:type:)``).
    func forEachRow(
        _ sql: String, _ arguments: [FieldValue], types: [ColumnType], _ body: ([FieldValue]) throws -> Void
    ) throws -> Int {
        try connection.execute(
            "DECLARE feedwork_rows NO SCROLL CURSOR FOR \(sql)", arguments.map(PostgresCopyText.text))
        defer { _ = try? connection.execute("CLOSE feedwork_rows") }
        var row = [FieldValue](repeating: .null, count: types.count)
        var count = 0
        while true {
            let rows = try connection.execute("FETCH 1000 FROM feedwork_rows")
            guard rows.count > 0 else { break }
            for index in 0..<rows.count {
                for (column, type) in types.enumerated() {
                    row[column] = PostgresValue.field(rows[index, column], type: type)
                }
                try body(row)
            }
            count += rows.count
        }
        return count
    }

    /// `bytea`'s type (its `pg_type.oid`).
    private static let byteaOID: UInt32 = 17

    private static func parameters(_ arguments: [SQLValue]) -> [String?] {
        arguments.map { argument in
            if case .bytes(let data) = argument { Hex.bytea(data) } else { argument.text }
        }
    }
}

/// The store's connections for the jobs written once (``StoreReading`` and ``StoreDriver``'s primitives).
extension PostgresStore {
    package var dialect: any SQLDialect { PostgresDialect() }

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
