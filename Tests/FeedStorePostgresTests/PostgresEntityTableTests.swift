import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// Entity tables on PostgreSQL against a real server: the types a SQL user expects, values
/// written by the writer read back exactly, keys and the lookup index. What both stores do the
/// same is `EntityTableTests`'.
@Suite("PostgreSQL entity tables")
struct PostgresEntityTableTests {
    static let typed = EntitySchema(
        name: "Typed",
        columns: [
            Column("id", .text), Column("count", .integer), Column("ratio", .real), Column("ok", .boolean),
            Column("amount", .decimal), Column("at", .timestamp), Column("doc", .json), Column("note", .text),
        ],
        key: ["id"], children: [ChildSchema(name: "lines", columns: [Column("price", .decimal)])])

    func types(of table: String, in connection: PostgresConnection) throws -> [String] {
        let rows = try connection.execute(
            """
            SELECT attname || ' ' || format_type(atttypid, atttypmod) || CASE WHEN attnotnull THEN ' not null' ELSE '' END
            FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum
            """, [PostgresSQL.identifier(table)])
        return (0..<rows.count).compactMap { rows[$0, 0] }
    }

    func primaryKey(of table: String, in connection: PostgresConnection) throws -> String? {
        try connection.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'p'",
            [PostgresSQL.identifier(table)]
        ).first(column: 0)
    }

    @Test func columnsHaveTheTypesASQLUserExpects() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try EntityTable.ensure(Self.typed, on: PostgresSQLConnection(connection: connection))
            #expect(
                try types(of: "Typed", in: connection) == [
                    "_feed text not null", "_key text not null", "_hash bigint not null", "_run bigint not null",
                    "_first_seen timestamp with time zone not null", "_last_seen timestamp with time zone not null",
                    "_row bigint not null", "id text", "count bigint", "ratio double precision", "ok boolean",
                    "amount numeric",
                    "at timestamp with time zone", "doc jsonb", "note text",
                ])
            #expect(
                try types(of: "Typed__lines", in: connection) == [
                    "_feed text not null", "_key text not null", "_position bigint not null", "price numeric",
                ])
            #expect(try primaryKey(of: "Typed", in: connection) == "PRIMARY KEY (_feed, _key)")
            #expect(try primaryKey(of: "Typed__lines", in: connection) == "PRIMARY KEY (_feed, _key, _position)")
        }
    }

    @Test func anAppendedEntityLosesItsKeyForAnIndexAndGetsItBack() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try EntityTable.ensure(Self.typed, on: PostgresSQLConnection(connection: connection))
            try EntityTable.ensure(Self.typed, keyed: false, on: PostgresSQLConnection(connection: connection))
            #expect(try primaryKey(of: "Typed", in: connection) == nil)
            #expect(try primaryKey(of: "Typed__lines", in: connection) == nil)
            let indexes = try connection.execute(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'Typed' AND schemaname = current_schema()")
            #expect(indexes.first(column: 0) == "Typed_feed_key")
            try EntityTable.ensure(Self.typed, keyed: true, on: PostgresSQLConnection(connection: connection))
            #expect(try primaryKey(of: "Typed", in: connection) == "PRIMARY KEY (_feed, _key)")
        }
    }

    @Test func valuesOfEveryTypeReadBackExactly() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try EntityTable.ensure(Self.typed, on: PostgresSQLConnection(connection: connection))
            let values: [[FieldValue]] = [
                [
                    .text("exact"), .integer(9_007_199_254_740_993), .real(0.1), .bool(true),
                    .text("0.10000000000000000001"), .text("2026-01-31T10:00:00Z"), .text(#"{"a": [1, 2.50]}"#),
                    .text("tab\there, back\\slash\nnew line"),
                ],
                [.text("nulls"), .null, .null, .null, .null, .null, .null, .null],
                [.text("odd reals"), .integer(-1), .real(.nan), .bool(false), .text("12.50"), .null, .null, .null],
                [.text("infinite"), .integer(0), .real(-.infinity), .null, .null, .null, .null, .null],
                [.text("tiny"), .integer(0), .real(.leastNonzeroMagnitude), .null, .null, .null, .null, .null],
            ]
            let records = try values.map { try EntityRecord(schema: Self.typed, values: $0) }
            let writer = PostgresEntityWriter(
                schema: Self.typed, mode: .merge, feed: "f", run: 1, stamp: "2026-01-01T00:00:00.000Z",
                connection: connection)
            try connection.execute("BEGIN")
            try writer.write(records, hashes: records.map { ContentHash.of($0, fields: ContentHash()) }, in: connection)
            try writer.sendDirect(connection)
            try connection.execute("COMMIT")
            let rows = try connection.execute(
                """
                SELECT id, count, ratio, ok, amount, \(PostgresSQL.isoText("at")), doc::text, doc -> 'a' ->> 1, note
                FROM "Typed" ORDER BY id
                """)
            let read = (0..<rows.count).map { row in (0..<9).map { rows[row, $0] ?? "∅" } }
            #expect(
                read == [
                    [
                        "exact", "9007199254740993", "0.1", "t", "0.10000000000000000001", "2026-01-31T10:00:00.000Z",
                        #"{"a": [1, 2.50]}"#, "2.50", "tab\there, back\\slash\nnew line",
                    ],
                    ["infinite", "0", "-Infinity", "∅", "∅", "∅", "∅", "∅", "∅"],
                    ["nulls", "∅", "∅", "∅", "∅", "∅", "∅", "∅", "∅"],
                    ["odd reals", "-1", "∅", "f", "12.50", "∅", "∅", "∅", "∅"],
                    ["tiny", "0", "5e-324", "∅", "∅", "∅", "∅", "∅", "∅"],
                ])
        }
    }

    /// The error of a first pass writing `records` of ``typed`` in a new schema: new records
    /// may be held until the pass ends (sendAll), where the server refuses them.
    func refusal(of records: [EntityRecord]) throws -> PostgresEntityError {
        var refused: PostgresEntityError?
        try PostgresTestServer.withSchema { connection, _ in
            try EntityTable.ensure(Self.typed, on: PostgresSQLConnection(connection: connection))
            let writer = PostgresEntityWriter(
                schema: Self.typed, mode: .merge, feed: "f", run: 1, stamp: "2026-01-01T00:00:00.000Z",
                connection: connection)
            try connection.execute("BEGIN")
            defer { _ = try? connection.execute("ROLLBACK") }
            refused = try #require(throws: PostgresEntityError.self) {
                try writer.write(
                    records, hashes: records.map { ContentHash.of($0, fields: ContentHash()) }, in: connection)
                try writer.sendDirect(connection)
            }
        }
        return try #require(refused)
    }

    @Test func aRefusedValueNamesTheEntityColumnAndRecord() throws {
        let good = [FieldValue.text("good")] + Array(repeating: .null, count: 7)
        var bad = good
        bad[0] = .text("bad")
        bad[5] = .text("not a time")
        let error = try refusal(of: [good, bad].map { try EntityRecord(schema: Self.typed, values: $0) })
        #expect(error.entity == "Typed")
        #expect(error.column == "at")
        #expect(error.key == "bad")
        #expect(error.description.contains("not a time"), "\(error)")
    }

    @Test func aRefusedChildValueNamesItsListColumnAndParentRecord() throws {
        let good = [FieldValue.text("good")] + Array(repeating: .null, count: 7)
        var bad = good
        bad[0] = .text("bad")
        let error = try refusal(of: [
            EntityRecord(schema: Self.typed, values: good, children: ["lines": [[.text("1.5")], [.text("2")]]]),
            EntityRecord(schema: Self.typed, values: bad, children: ["lines": [[.text("3")], [.text("many")]]]),
        ])
        #expect(error.entity == "Typed")
        #expect(error.column == "price")
        #expect(error.key == "bad")
        #expect(error.description.contains("many"), "\(error)")
    }
}
