import FeedKit
import FeedStore
import Foundation
import GRDB
import Testing

@testable import FeedStorePostgres
@testable import FeedStoreSQLite

/// The entity writer shared by every driver (``SQLEntityWriter``), which a driver without a
/// writer of its own gets: on SQLite and on a real PostgreSQL server, it stores what each
/// driver's own writer stores, and counts what it counts.
@Suite("Shared entity writer")
struct SharedEntityWriterTests {
    /// Writes each pass of `passes` (its batches) through each driver's own writer and through
    /// the shared one, expecting the same counts, duplicate notes and rows after every pass.
    func expectTheOwnWritersOutcome(
        _ mode: WriteMode, _ passes: some Sequence<[[WriterComparison.Delivery]]>, parameterLimit: Int? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        try PostgresTestServer.withSchema { ownConnection, ownSchema in
            try PostgresTestServer.withSchema { sharedConnection, sharedSchema in
                let own = try WriterComparison(mode: mode, postgres: ownConnection, schema: ownSchema)
                let shared = try WriterComparison(
                    mode: mode, writers: .shared, parameterLimit: parameterLimit, postgres: sharedConnection,
                    schema: sharedSchema)
                for batches in passes {
                    let (expected, outcome) = (try own.pass(batches), try shared.pass(batches))
                    #expect(outcome.sqlite == expected.sqlite, sourceLocation: sourceLocation)
                    #expect(outcome.postgres == expected.postgres, sourceLocation: sourceLocation)
                    #expect(outcome.sqliteNote == expected.sqliteNote, sourceLocation: sourceLocation)
                    #expect(outcome.postgresNote == expected.postgresNote, sourceLocation: sourceLocation)
                    let (expectedRows, rows) = (try own.rows(), try shared.rows())
                    #expect(rows.sqlite == expectedRows.sqlite, sourceLocation: sourceLocation)
                    #expect(rows.postgres == expectedRows.postgres, sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test(arguments: WriteMode.allCases, [17, 4242])
    func randomPassesLeaveTheRowsAndCountsOfEachDriversOwnWriter(mode: WriteMode, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let passes = (0..<12).map { _ in
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    let tags = (0..<Int.random(in: 0...2, using: &generator)).map { "t\($0)" }
                    return WriterComparison.Delivery(
                        "k\(Int.random(in: 0..<10, using: &generator))", Int64.random(in: 0..<3, using: &generator),
                        tags: tags)
                }
            }
        }
        try expectTheOwnWritersOutcome(mode, passes)
    }

    /// Batches of more keys, rows and child rows than one statement binds parameters for
    /// (50 here, ``SQLDialect/parameterLimit`` otherwise), with keys delivered twice across the
    /// pieces.
    @Test(arguments: WriteMode.allCases)
    func aBatchLargerThanOneStatementsParametersIsWrittenInPieces(mode: WriteMode) throws {
        let count = 300
        func batch(changing every: Int) -> [WriterComparison.Delivery] {
            (0..<count).map { index in
                WriterComparison.Delivery(
                    "k\(index % (count - 40))", Int64(index % every == 0 ? index : 1),
                    tags: (0..<(index % 3)).map { "t\($0)" })
            }
        }
        try expectTheOwnWritersOutcome(
            mode, [[batch(changing: 7)], [batch(changing: 5), batch(changing: 7)]], parameterLimit: 50)
    }

    @Test func aStatementBindingThePostgreSQLDialectsParameterLimitRuns() throws {
        try PostgresTestServer.withSchema { postgres, _ in
            let connection = PostgresSQLConnection(connection: postgres)
            let limit = connection.dialect.parameterLimit
            let placeholders = Array(repeating: "?", count: limit).joined(separator: ", ")
            let rows = try connection.rows(
                "SELECT count(*) FROM unnest(ARRAY[\(placeholders)]::bigint[])",
                (0..<limit).map { .integer(Int64($0)) })
            #expect(rows.first?.first?.integer == Int64(limit))
        }
    }

    static let everyType = EntitySchema(
        name: "sample",
        columns: [
            Column("id", .text, nullable: false), Column("count", .integer), Column("ratio", .real),
            Column("label", .text), Column("flag", .boolean), Column("price", .decimal), Column("at", .timestamp),
            Column("day", .date), Column("extra", .json),
        ], key: ["id"])

    /// Records with a value of each type, including those a database converts (a boolean, a
    /// real without an exact binary form, a decimal's trailing zero, JSON whose keys are not
    /// in order), and one of nulls.
    static func everyTypeRecords() throws -> [EntityRecord] {
        try [
            [
                .text("a"), .integer(42), .real(0.1), .text("it's \\ \"quoted\""), .bool(true), .text("12.340"),
                .text("2026-01-02T03:04:05.678Z"), .text("2026-01-02"), .text(#"{"b":1,"a":[true,null,"é"]}"#),
            ],
            [
                .text("b"), .integer(-7), .real(-1.5e300), .text(""), .bool(false), .text("-0.5"),
                .text("2026-12-31T23:59:59Z"), .text("1999-12-31"), .text("[]"),
            ],
            [.text("c"), .null, .null, .null, .null, .null, .null, .null, .null],
        ].map { try EntityRecord(schema: everyType, values: $0) }
    }

    static let stamp = WriterComparison.stamp(1)

    /// Writes ``everyTypeRecords()`` to feed `own` with `own` (a writer of feed `own`) and to
    /// feed `shared` with the shared writer, on `connection` (the table made already), then
    /// expects the same counts and, column by column, the same stored values, each read as
    /// `value` gives it.
    static func expectEveryTypeStoredAlike(
        own: any EntityWriting, on connection: any SQLConnection, value: (String) -> String
    ) throws {
        let records = try everyTypeRecords()
        let hashes = records.map { ContentHash.of($0, fields: ContentHash()) }
        let shared = SQLEntityWriter(
            schema: everyType, mode: .merge, feed: "shared", run: 1, stamp: stamp, connection: connection)
        for writer in [own, shared] {
            defer { writer.close() }
            try writer.write(records[...], hashes: hashes[...])
            try writer.sendAll()
        }
        #expect(shared.tally.counts == own.tally.counts)
        let columns = (["_key", "_hash", "_run", "_first_seen", "_last_seen"] + everyType.columns.map(\.name))
            .map { value(SQLIdentifier.quoted($0)) }
        func stored(_ feed: String) throws -> [[SQLValue]] {
            try connection.rows(
                "SELECT \(columns.joined(separator: ", ")) FROM sample WHERE _feed = ? ORDER BY _key", [.text(feed)])
        }
        let expected = try stored("own")
        #expect(expected.count == 3)
        #expect(try stored("shared") == expected)
    }

    /// SQLite's `quote()` tells a value's storage class apart (`1` from `'1'`).
    @Test func onSQLiteAValueOfEachTypeIsStoredAsSQLitesOwnWriterStoresIt() throws {
        try DatabaseQueue().write { db in
            let connection = SQLiteSQLConnection(db: db, location: ":memory:")
            try EntityTable.ensure(Self.everyType, keyed: true, on: connection)
            let own = SQLiteEntityWriter(
                schema: Self.everyType, mode: .merge, feed: "own", run: 1, stamp: Self.stamp, db: db)
            try Self.expectEveryTypeStoredAlike(own: own, on: connection) { "quote(\($0))" }
        }
    }

    @Test func onPostgreSQLAValueOfEachTypeIsStoredAsPostgreSQLsOwnWriterStoresIt() throws {
        try PostgresTestServer.withSchema { postgres, schema in
            try PostgresMigrations.migrate(postgres, schema: schema)
            let connection = PostgresSQLConnection(connection: postgres)
            try EntityTable.ensure(Self.everyType, keyed: true, on: connection)
            try postgres.execute("BEGIN")
            defer { _ = try? postgres.execute("ROLLBACK") }
            let own = PostgresEntityWriter(
                schema: Self.everyType, mode: .merge, feed: "own", run: 1, stamp: Self.stamp, connection: postgres)
            try Self.expectEveryTypeStoredAlike(own: own, on: connection) { "\($0)::text" }
        }
    }
}
