import FeedStore
import Foundation
import GRDB
import StoreTestSupport
import Testing

@testable import FeedStoreSQLite

/// The system tables as an SQLite store holds them: what `SystemTables` describes, read back
/// from a new store and from one brought up to date migration by migration, as the stores in use
/// were.
@Suite("System tables: SQLite")
struct SQLiteSystemTablesTests {
    /// What an SQLite store must report of every system table, by name.
    static let expected = SystemTableShape.expected(
        types: [
            .serial: "INTEGER", .text: "TEXT", .integer: "INTEGER", .boolean: "INTEGER", .time: "TEXT", .json: "TEXT",
            .bytes: "BLOB",
        ], booleanZero: "0")

    /// The system tables of the SQLite database `db`, by name.
    static func shapes(_ db: Database) throws -> [String: SystemTableShape] {
        var result: [String: SystemTableShape] = [:]
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
            let definitions = try Row.fetchAll(
                db,
                sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                arguments: [table])
            for definition in definitions {
                let index: String = definition["name"]
                let sql: String = definition["sql"]
                indexes[index] =
                    try String.fetchAll(
                        db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                    + (sql.range(of: " WHERE ").map { ["where " + sql[$0.upperBound...]] } ?? [])
            }
            result[table] = SystemTableShape(columns: columns, primaryKey: key.map { $0["name"] }, indexes: indexes)
        }
        return result
    }

    static func temporaryStorePath() throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("system-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("feeds.sqlite").path)
    }

    static func expectMatches(_ shapes: [String: SystemTableShape]) {
        #expect(shapes.keys.sorted() == expected.keys.sorted())
        for (name, shape) in expected {
            #expect(shapes[name] == shape, "\(name)")
        }
    }

    @Test func aNewStoreHasTheDescribedSystemTables() async throws {
        let (directory, path) = try Self.temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        Self.expectMatches(try await queue.read(Self.shapes))
    }

    @Test func aStoreMigratedStepByStepHasTheDescribedSystemTables() async throws {
        let (directory, path) = try Self.temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(queue)
        Self.expectMatches(try await queue.read(Self.shapes))
    }

    @Test func aNewStoreRecordsEveryMigrationAndOpensForReading() async throws {
        let (directory, path) = try Self.temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        let migrator = SQLiteMigrations.migrator
        #expect(try await queue.read(migrator.appliedIdentifiers) == Set(migrator.migrations))
        try queue.close()
        let reader = Store(try SQLiteStore(readingAt: path))
        #expect(try await reader.query("SELECT count(*) AS n FROM _runs") == [["n": .integer(0)]])
    }
}
