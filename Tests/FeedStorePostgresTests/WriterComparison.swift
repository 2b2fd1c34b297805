import FeedKit
import FeedStore
import Foundation
import GRDB

@testable import FeedStorePostgres
@testable import FeedStoreSQLite

/// The same passes written into an in-memory SQLite database and into a PostgreSQL test
/// schema, so a test can compare their counts and their resulting rows: by each driver's own
/// writer (``SQLiteEntityWriter``, ``PostgresEntityWriter``), or by the writer written once for
/// every driver (``SQLEntityWriter``) on both.
///
/// The entity is `item` (`id` text key, `value` integer) with a child list `tags` (`tag`
/// text); each pass is a run of its own (1, 2, ...) with a stamp one second after the last.
final class WriterComparison {
    /// One delivered record.
    struct Delivery {
        var id: String
        var value: Int64?
        var tags: [String] = []

        init(_ id: String, _ value: Int64?, tags: [String] = []) {
            self.id = id
            self.value = value
            self.tags = tags
        }
    }

    /// What one pass did on each store.
    struct Outcome {
        var sqlite: WriteCounts
        var postgres: WriteCounts
        var sqliteNote: String?
        var postgresNote: String?
    }

    static let schema = EntitySchema(
        name: "item", columns: [Column("id", .text, nullable: false), Column("value", .integer)], key: ["id"],
        children: [ChildSchema(name: "tags", columns: [Column("tag", .text)])])

    /// Which writers write the passes.
    enum Writers: CaseIterable {
        /// Each driver's own.
        case drivers
        /// ``SQLEntityWriter``, on both.
        case shared
    }

    let mode: WriteMode
    let writers: Writers
    /// The most parameters a statement of the shared writer binds; its dialect's when `nil`.
    let parameterLimit: Int?
    let feed: String
    let postgres: PostgresConnection
    let sqlite: DatabaseQueue
    private(set) var run: Int64 = 0

    /// Sets up both stores; `postgres`'s `search_path` is a fresh schema, which gains the
    /// PostgreSQL store's system tables.
    init(
        mode: WriteMode, writers: Writers = .drivers, parameterLimit: Int? = nil, feed: String = "items",
        postgres: PostgresConnection, schema: String
    ) throws {
        self.mode = mode
        self.writers = writers
        self.parameterLimit = parameterLimit
        self.feed = feed
        self.postgres = postgres
        try PostgresMigrations.migrate(postgres, schema: schema)
        try EntityTable.ensure(Self.schema, keyed: mode != .append, on: PostgresSQLConnection(connection: postgres))
        sqlite = try DatabaseQueue()
        try sqlite.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE _tombstones (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, feed TEXT NOT NULL, entity TEXT NOT NULL,
                        key TEXT NOT NULL, key_values TEXT NOT NULL, run INTEGER NOT NULL, deleted_at TEXT NOT NULL
                    )
                    """)
            try EntityTable.ensure(
                Self.schema, keyed: mode != .append, on: SQLiteSQLConnection(db: db, location: ":memory:"))
        }
    }

    /// The stamp of pass `run`.
    static func stamp(_ run: Int64) -> String {
        Timestamp.string(Date(timeIntervalSince1970: 1_767_225_600.25 + Double(run)))
    }

    static func records(_ batch: [Delivery]) throws -> [EntityRecord] {
        try batch.map { delivery in
            try EntityRecord(
                schema: schema, values: [.text(delivery.id), .integer(delivery.value.map { Int($0) })],
                children: delivery.tags.isEmpty ? [:] : ["tags": delivery.tags.map { [.text($0)] }])
        }
    }

    /// Writes one pass, given as its batches, through both writers, each driven as a pass
    /// drives it (``EntityWriting``): the batches, then every record it holds sent, then a
    /// `replace` pass's deletions.
    @discardableResult
    func pass(_ batches: [[Delivery]]) throws -> Outcome {
        run += 1
        let (run, stamp, mode, feed, writers, limit) = (run, Self.stamp(run), mode, feed, writers, parameterLimit)
        let batches = try batches.map(Self.records)
        func write(_ writer: any EntityWriting, on connection: any SQLConnection) throws -> (WriteCounts, String?) {
            defer { writer.close() }
            for batch in batches {
                try writer.write(batch[...], hashes: batch.map { ContentHash.of($0, fields: ContentHash()) }[...])
            }
            try writer.sendAll()
            if mode == .replace {
                let deleted = try EntityDeletion.delete(
                    .undelivered, of: Self.schema, feed: feed, run: run, stamp: stamp, on: connection)
                writer.tally.countDeleted(deleted, undelivered: true)
            }
            return (writer.tally.counts, writer.tally.duplicateNote(entity: Self.schema.name))
        }
        func shared(on connection: any SQLConnection) -> SQLEntityWriter {
            SQLEntityWriter(
                schema: Self.schema, mode: mode, feed: feed, run: run, stamp: stamp, connection: connection,
                parameterLimit: limit)
        }
        let sqliteResult = try sqlite.write { db in
            let connection = SQLiteSQLConnection(db: db, location: ":memory:")
            let writer: any EntityWriting =
                switch writers {
                case .drivers:
                    SQLiteEntityWriter(schema: Self.schema, mode: mode, feed: feed, run: run, stamp: stamp, db: db)
                case .shared: shared(on: connection)
                }
            return try write(writer, on: connection)
        }
        try postgres.execute("BEGIN")
        let postgresResult: (WriteCounts, String?)
        do {
            let connection = PostgresSQLConnection(connection: postgres)
            let writer: any EntityWriting =
                switch writers {
                case .drivers:
                    PostgresEntityWriter(
                        schema: Self.schema, mode: mode, feed: feed, run: run, stamp: stamp, connection: postgres)
                case .shared: shared(on: connection)
                }
            postgresResult = try write(writer, on: connection)
            try postgres.execute("COMMIT")
        } catch {
            _ = try? postgres.execute("ROLLBACK")
            throw error
        }
        return Outcome(
            sqlite: sqliteResult.0, postgres: postgresResult.0, sqliteNote: sqliteResult.1,
            postgresNote: postgresResult.1)
    }

    /// The rows of the entity, its child table and `_tombstones` on each store, as sorted lines
    /// of text (`∅` for NULL).
    func rows() throws -> (sqlite: [String], postgres: [String]) {
        let queries = [
            "item": "_feed, _key, _hash, _run, _first_seen, _last_seen, id, value",
            "item__tags": "_feed, _key, _position, tag",
            "_tombstones": "feed, entity, key, key_values, run, deleted_at",
        ]
        var sqliteLines: [String] = []
        var postgresLines: [String] = []
        for (table, columns) in queries.sorted(by: { $0.key < $1.key }) {
            let sqliteRows = try sqlite.read { db in try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table)") }
            sqliteLines += sqliteRows.map { row in
                table + ": "
                    + row.databaseValues.map { value -> String in
                        switch value.storage {
                        case .null: "∅"
                        case .int64(let number): String(number)
                        case .double(let number): String(number)
                        case .string(let text): text
                        case .blob(let data): data.base64EncodedString()
                        }
                    }.joined(separator: " | ")
            }
            let postgresColumns = columns.split(separator: ", ").map { name in
                ["_first_seen", "_last_seen", "deleted_at"].contains(String(name))
                    ? PostgresSQL.isoText(String(name)) : String(name)
            }
            let result = try postgres.execute("SELECT \(postgresColumns.joined(separator: ", ")) FROM \(table)")
            postgresLines += (0..<result.count).map { row in
                table + ": " + (0..<result.columns.count).map { result[row, $0] ?? "∅" }.joined(separator: " | ")
            }
        }
        return (sqliteLines.sorted(), postgresLines.sorted())
    }
}
