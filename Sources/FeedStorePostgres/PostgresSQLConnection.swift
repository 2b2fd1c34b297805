import FeedKit
import FeedStore
import Foundation

/// A PostgreSQL connection as the store's jobs written once for every driver use it
/// (``SQLConnection``): `?` parameters numbered, every value sent and read as text, bytes in
/// `bytea`'s hex form (a `bytea` column reads back as ``SQLValue/bytes(_:)``, as a BLOB does on
/// SQLite).
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection

    var location: String { connection.location }

    var dialect: any SQLDialect { PostgresDialect() }

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

    /// In the connection's schema and in UTC (a reading connection's session), each column read
    /// by its type's OID (``PostgresValueType``).
    func namedRows(_ sql: String, _ arguments: [FieldValue]) throws -> [[String: FieldValue]] {
        let rows = try connection.execute(sql, arguments.map(PostgresValueType.parameter))
        let columns = rows.columns
        let types = columns.indices.map { PostgresValueType(oid: rows.typeOID(ofColumn: $0)) }
        return (0..<rows.count).map { row in
            var result: [String: FieldValue] = [:]
            for (column, name) in columns.enumerated() {
                result[name] = types[column].value(rows[row, column])
            }
            return result
        }
    }

    /// An advisory lock of the transaction on the entity's name in the schema
    /// (``PostgresSQL/entityChangeLockSQL``).
    func lockChanges(of entity: String) throws {
        try connection.execute(PostgresSQL.entityChangeLockSQL, [entity.lowercased()])
    }

    /// Whether a row written in the transaction under way points at nothing through a foreign
    /// key (``PassDatabase/foreignKeysBroken``): the deferred checks run now (`SET CONSTRAINTS
    /// ALL IMMEDIATE`, at the cost they would have at the commit, which then has none left to
    /// run); when one fails, the transaction goes back to before them, so the row can be looked
    /// for.
    func foreignKeysBroken() throws(PostgresError) -> Bool {
        try connection.execute("SAVEPOINT feedwork_foreign_keys")
        do {
            try connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
            try connection.execute("RELEASE SAVEPOINT feedwork_foreign_keys")
            return false
        } catch {
            guard error.sqlState == "23503" else { throw error }  // foreign_key_violation
            try connection.execute("ROLLBACK TO SAVEPOINT feedwork_foreign_keys")
            return true
        }
    }

    func dropColumn(_ column: String, of table: String) throws {
        try connection.execute(
            "ALTER TABLE \(try qualified(table)) DROP COLUMN \(PostgresSQL.identifier(column))")
    }

    /// Its full-text index is an index of the table, which goes with it.
    func dropTable(_ table: String) throws {
        try connection.execute("DROP TABLE IF EXISTS \(try qualified(table))")
    }

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

/// What is done to a server's store outside any pass, for tests (`StoreFactory`'s
/// maintenance): each on a connection of its own, which takes no lease and checks nothing.
extension PostgresStore {
    /// Runs `sql` (one statement or several) in `schema` on the server at `url`, on a thread of
    /// its own: for tests that damage or age what a pass left, even a store this Feedwork would
    /// refuse to open.
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses a statement.
    package static func execute(_ sql: String, schema: String, url: String) async throws {
        try await StoreThread(label: "feedwork.postgres.execute").perform {
            let connection = try PostgresConnection(url: url)
            try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
            try connection.execute(sql)
        }
    }

    /// Drops `schema` on the server at `url` with everything in it, when it is there: a test's
    /// throwaway store. One blocking statement, for a caller that cannot await (a `deinit`).
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses the statement.
    package static func dropSchema(_ schema: String, url: String) throws(PostgresError) {
        try PostgresConnection(url: url).execute("DROP SCHEMA IF EXISTS \(PostgresSQL.identifier(schema)) CASCADE")
    }
}
