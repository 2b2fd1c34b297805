import FeedStore
import Foundation
import StoreTestSupport
import Testing

@testable import FeedStorePostgres

/// The system tables as a PostgreSQL store holds them: what `SystemTables` describes, read back
/// from a new store and from one brought up to date migration by migration, as the stores in use
/// were.
@Suite("System tables: PostgreSQL")
struct PostgresSystemTablesTests {
    /// What a PostgreSQL store must report of every system table, by name.
    static let expected = SystemTableShape.expected(
        types: [
            .serial: "bigint", .text: "text", .integer: "bigint", .boolean: "boolean",
            .time: "timestamp with time zone", .json: "jsonb", .bytes: "bytea",
        ], booleanZero: "false", serialDefault: "serial")

    /// The system tables of the PostgreSQL schema `schema`, by name.
    static func shapes(_ connection: PostgresConnection, schema: String) throws -> [String: SystemTableShape] {
        var result: [String: SystemTableShape] = [:]
        let tables = try connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [schema])
        for table in (0..<tables.count).compactMap({ tables[$0, 0] }) where table.hasPrefix("_") {
            guard table != "_migrations" else { continue }
            let info = try connection.execute(
                """
                SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
                WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position
                """, [schema, table])
            let columns = (0..<info.count).map { row -> String in
                let value = info[row, 3].map { $0.hasPrefix("nextval(") ? "serial" : $0 } ?? "none"
                let notNull = info[row, 2] == "NO" ? "not null" : "null"
                return "\(info[row, 0] ?? "") \(info[row, 1] ?? "") \(notNull) default \(value)"
            }
            let key = try connection.execute(
                """
                SELECT a.attname FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                WHERE i.indrelid = $1::regclass AND i.indisprimary
                ORDER BY array_position(i.indkey::int2[], a.attnum)
                """, [PostgresSQL.identifier(schema) + "." + PostgresSQL.identifier(table)])
            let definitions = try connection.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2", [schema, table])
            var indexes: [String: [String]] = [:]
            for row in 0..<definitions.count {
                // `CREATE INDEX name ON schema.table USING btree (a, b) [WHERE (condition)]`
                guard let name = definitions[row, 0], let definition = definitions[row, 1],
                    !definition.hasPrefix("CREATE UNIQUE"), let using = definition.range(of: " USING btree (")
                else { continue }
                let rest = definition[using.upperBound...]
                let list = rest.prefix { $0 != ")" }
                var shape = list.split(separator: ", ").map(String.init)
                if let condition = rest.range(of: " WHERE (") {
                    shape.append("where " + rest[condition.upperBound...].dropLast())
                }
                indexes[name] = shape
            }
            result[table] = SystemTableShape(
                columns: columns, primaryKey: (0..<key.count).compactMap { key[$0, 0] }, indexes: indexes)
        }
        return result
    }

    static func expectMatches(_ shapes: [String: SystemTableShape]) {
        #expect(shapes.keys.sorted() == expected.keys.sorted())
        for (name, shape) in expected {
            #expect(shapes[name] == shape, "\(name)")
        }
    }

    @Test func aNewStoreHasTheDescribedSystemTables() async throws {
        try PostgresTestServer.withSchema { connection, schema in
            try PostgresMigrations.migrate(connection, schema: schema)
            Self.expectMatches(try Self.shapes(connection, schema: schema))
        }
    }

    @Test func aStoreMigratedStepByStepHasTheDescribedSystemTables() async throws {
        try PostgresTestServer.withSchema { connection, schema in
            try PostgresMigrations.migrate(connection, schema: schema, creatingFromDescription: false)
            Self.expectMatches(try Self.shapes(connection, schema: schema))
        }
    }

    @Test func aNewStoreRecordsEveryStep() async throws {
        try PostgresTestServer.withSchema { connection, schema in
            try PostgresMigrations.migrate(connection, schema: schema)
            let rows = try connection.execute("SELECT version, name FROM _migrations ORDER BY version")
            let recorded = (0..<rows.count).map { "\(rows[$0, 0] ?? "") \(rows[$0, 1] ?? "")" }
            #expect(recorded == PostgresMigrations.steps.map { "\($0.version) \($0.name)" })
            try PostgresMigrations.checkCurrent(connection, schema: schema)
        }
    }
}
