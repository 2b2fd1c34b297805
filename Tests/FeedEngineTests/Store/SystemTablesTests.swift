import FeedTestSupport
import Foundation
import GRDB
import Testing

@testable import FeedEngine
@testable import FeedStorePostgres
@testable import FeedStoreSQLite

/// The system tables as a store holds them: what `SystemTables` describes, read back from a new
/// store and from one brought up to date migration by migration, as the stores in use were.
@Suite("System tables")
struct SystemTablesTests {
    /// One table as the database reports it.
    struct Shape: Equatable, CustomStringConvertible {
        /// Name, the type the database reports, whether it refuses null (or is a key) and its default.
        var columns: [String]
        var primaryKey: [String]
        /// Index name: its columns.
        var indexes: [String: [String]]

        var description: String {
            "columns \(columns), key \(primaryKey), indexes \(indexes.sorted { $0.key < $1.key })"
        }
    }

    /// What `driver` must report of every table of ``SystemTables/all``, by name.
    static func expected(_ driver: HarnessStore) -> [String: Shape] {
        let sqliteTypes: [SystemColumn.Kind: String] = [
            .serial: "INTEGER", .text: "TEXT", .integer: "INTEGER", .boolean: "INTEGER", .time: "TEXT", .json: "TEXT",
            .bytes: "BLOB",
        ]
        let postgresTypes: [SystemColumn.Kind: String] = [
            .serial: "bigint", .text: "text", .integer: "bigint", .boolean: "boolean",
            .time: "timestamp with time zone", .json: "jsonb", .bytes: "bytea",
        ]
        var result: [String: Shape] = [:]
        for table in SystemTables.all {
            let columns = table.columns.map { column -> String in
                let type = (driver == .sqlite ? sqliteTypes : postgresTypes)[column.kind] ?? "?"
                let zero = column.kind == .boolean && driver == .postgres ? "false" : "0"
                let value =
                    column.kind == .serial && driver == .postgres ? "serial" : column.defaultsToZero ? zero : "none"
                return "\(column.name) \(type) \(column.nullable ? "null" : "not null") default \(value)"
            }
            result[table.name] = Shape(
                columns: columns, primaryKey: table.primaryKey,
                indexes: Dictionary(uniqueKeysWithValues: table.indexes.map { ($0.name, $0.columns) }))
        }
        return result
    }

    /// The system tables of the SQLite database `db`, by name.
    static func shapes(_ db: Database) throws -> [String: Shape] {
        var result: [String: Shape] = [:]
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        for table in tables where table.hasPrefix("_") {
            let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQLIdentifier.quoted(table)))")
            let columns = info.map { row -> String in
                let name: String = row["name"]
                let type: String = row["type"]
                let notNull = (row["notnull"] as Int) == 1 || (row["pk"] as Int) > 0
                let value: String? = row["dflt_value"]
                return "\(name) \(type) \(notNull ? "not null" : "null") default \(value ?? "none")"
            }
            let key = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
            var indexes: [String: [String]] = [:]
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                arguments: [table])
            for index in names {
                indexes[index] = try String.fetchAll(
                    db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
            }
            result[table] = Shape(columns: columns, primaryKey: key.map { $0["name"] }, indexes: indexes)
        }
        return result
    }

    /// The system tables of the PostgreSQL schema `schema`, by name.
    static func shapes(_ connection: PostgresConnection, schema: String) throws -> [String: Shape] {
        var result: [String: Shape] = [:]
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
                guard let name = definitions[row, 0], let definition = definitions[row, 1],
                    !definition.hasPrefix("CREATE UNIQUE"), let open = definition.lastIndex(of: "(")
                else { continue }
                let list = definition[definition.index(after: open)...].dropLast()
                indexes[name] = list.split(separator: ", ").map(String.init)
            }
            result[table] = Shape(
                columns: columns, primaryKey: (0..<key.count).compactMap { key[$0, 0] }, indexes: indexes)
        }
        return result
    }

    static func temporaryStorePath() throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("system-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("feeds.sqlite").path)
    }

    static func expectMatches(_ shapes: [String: Shape], _ driver: HarnessStore) {
        let expected = expected(driver)
        #expect(shapes.keys.sorted() == expected.keys.sorted())
        for (name, shape) in expected {
            #expect(shapes[name] == shape, "\(driver) \(name)")
        }
    }

    @Test(arguments: HarnessStore.available)
    func aNewStoreHasTheDescribedSystemTables(driver: HarnessStore) async throws {
        switch driver {
        case .sqlite:
            let (directory, path) = try Self.temporaryStorePath()
            defer { try? FileManager.default.removeItem(at: directory) }
            _ = try SQLiteStore(path: path)
            let queue = try DatabaseQueue(path: path)
            Self.expectMatches(try await queue.read(Self.shapes), driver)
        case .postgres:
            try PostgresTestServer.withSchema { connection, schema in
                try PostgresMigrations.migrate(connection, schema: schema)
                Self.expectMatches(try Self.shapes(connection, schema: schema), driver)
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aStoreMigratedStepByStepHasTheDescribedSystemTables(driver: HarnessStore) async throws {
        switch driver {
        case .sqlite:
            let (directory, path) = try Self.temporaryStorePath()
            defer { try? FileManager.default.removeItem(at: directory) }
            let queue = try DatabaseQueue(path: path)
            try SQLiteMigrations.migrator.migrate(queue)
            Self.expectMatches(try await queue.read(Self.shapes), driver)
        case .postgres:
            try PostgresTestServer.withSchema { connection, schema in
                try PostgresMigrations.migrate(connection, schema: schema, creatingFromDescription: false)
                Self.expectMatches(try Self.shapes(connection, schema: schema), driver)
            }
        }
    }

    @Test func aNewSQLiteStoreRecordsEveryMigrationAndOpensForReading() async throws {
        let (directory, path) = try Self.temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let migrator = SQLiteMigrations.migrator
        #expect(try await queue.read(migrator.appliedIdentifiers) == Set(migrator.migrations))
        try queue.close()
        let reader = try SQLiteStore(readingAt: path)
        #expect(try await reader.query("SELECT count(*) AS n FROM _runs") == [["n": .integer(0)]])
    }

    @Test func aNewPostgreSQLStoreRecordsEveryStep() async throws {
        try PostgresTestServer.withSchema { connection, schema in
            try PostgresMigrations.migrate(connection, schema: schema)
            let rows = try connection.execute("SELECT version, name FROM _migrations ORDER BY version")
            let recorded = (0..<rows.count).map { "\(rows[$0, 0] ?? "") \(rows[$0, 1] ?? "")" }
            #expect(recorded == PostgresMigrations.steps.map { "\($0.version) \($0.name)" })
            try PostgresMigrations.checkCurrent(connection, schema: schema)
        }
    }
}
