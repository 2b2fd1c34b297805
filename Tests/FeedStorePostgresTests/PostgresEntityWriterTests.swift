import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// The PostgreSQL entity writer against a real server, each behaviour written through the
/// SQLite writer too (``WriterComparison``): the counts and the resulting rows must be the
/// SQLite store's, and the counts the ones given here. The behaviours every writer has are
/// also written by the writer shared by every driver (``SQLEntityWriter``), on both stores.
@Suite("PostgreSQL entity writer")
struct PostgresEntityWriterTests {
    typealias Delivery = WriterComparison.Delivery

    /// Runs `body` with a comparison in `mode` through `writers`, then checks both stores hold
    /// the same rows.
    func compare(
        _ mode: WriteMode, _ writers: WriterComparison.Writers = .drivers, _ body: (WriterComparison) throws -> Void
    ) throws {
        try PostgresTestServer.withSchema { connection, schema in
            let comparison = try WriterComparison(mode: mode, writers: writers, postgres: connection, schema: schema)
            try body(comparison)
            let rows = try comparison.rows()
            #expect(rows.postgres == rows.sqlite)
        }
    }

    /// Writes a pass through both writers, expecting the same counts, equal to `expected`:
    /// (inserted, updated, unchanged, deleted, duplicates).
    @discardableResult
    func pass(
        _ comparison: WriterComparison, _ batches: [[Delivery]], expect expected: (Int, Int, Int, Int, Int),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> WriterComparison.Outcome {
        let outcome = try comparison.pass(batches)
        #expect(outcome.postgres == outcome.sqlite, sourceLocation: sourceLocation)
        #expect(outcome.postgresNote == outcome.sqliteNote, sourceLocation: sourceLocation)
        let counts = outcome.postgres
        #expect(
            (counts.inserted, counts.updated, counts.unchanged, counts.deleted, counts.duplicates) == expected,
            sourceLocation: sourceLocation)
        return outcome
    }

    static let abc = [Delivery("a", 1), Delivery("b", 2), Delivery("c", 3)]

    @Test(arguments: WriterComparison.Writers.allCases)
    func aFirstPassInsertsEveryRecord(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            try pass(comparison, [Self.abc], expect: (3, 0, 0, 0, 0))
            let rows = try comparison.postgres.execute(
                "SELECT id, value, _run, \(PostgresSQL.isoText("_first_seen")) FROM item ORDER BY id")
            #expect(rows.count == 3)
            #expect(rows[1, 0] == "b")
            #expect(rows[1, 1] == "2")
            #expect(rows[1, 2] == "1")
            #expect(rows[1, 3] == WriterComparison.stamp(1))
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func anIdenticalSecondPassCountsUnchangedAndMovesOnlyLastSeen(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            try pass(comparison, [Self.abc], expect: (3, 0, 0, 0, 0))
            try pass(comparison, [Self.abc], expect: (0, 0, 3, 0, 0))
            let rows = try comparison.postgres.execute(
                """
                SELECT DISTINCT _run, \(PostgresSQL.isoText("_first_seen")), \(PostgresSQL.isoText("_last_seen"))
                FROM item
                """)
            #expect(rows.count == 1)
            #expect(
                [rows[0, 0], rows[0, 1], rows[0, 2]] == ["1", WriterComparison.stamp(1), WriterComparison.stamp(2)])
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func aChangedRecordIsUpdatedAndCarriesTheRunThatChangedIt(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            try pass(comparison, [Self.abc], expect: (3, 0, 0, 0, 0))
            try pass(comparison, [[Delivery("a", 1), Delivery("b", 20), Delivery("d", 4)]], expect: (1, 1, 1, 0, 0))
            let rows = try comparison.postgres.execute("SELECT id, value, _run FROM item ORDER BY id")
            #expect(
                (0..<rows.count).map { "\(rows[$0, 0]!)=\(rows[$0, 1]!)@\(rows[$0, 2]!)" } == [
                    "a=1@1", "b=20@2", "c=3@1", "d=4@2",
                ])
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func aKeyDeliveredTwiceInOneBatchIsCountedOnceAndTheLastWins(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            let outcome = try pass(
                comparison, [[Delivery("a", 1), Delivery("b", 2), Delivery("a", 3), Delivery("a", 4)]],
                expect: (2, 0, 0, 0, 2))
            #expect(outcome.postgresNote == "2 duplicate item key(s) in this pass ('a'); the last one wins")
            #expect(try comparison.postgres.execute("SELECT value FROM item WHERE id = 'a'")[0, 0] == "4")
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func aKeyDeliveredAgainInALaterBatchIsADuplicateAndTheLastWins(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            try pass(comparison, [Self.abc], expect: (3, 0, 0, 0, 0))
            try pass(
                comparison,
                [[Delivery("a", 1), Delivery("b", 5)], [Delivery("b", 6), Delivery("a", 1)], [Delivery("b", 7)]],
                expect: (0, 1, 1, 0, 3))
            #expect(try comparison.postgres.execute("SELECT value FROM item WHERE id = 'b'")[0, 0] == "7")
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func aKeyDeliveredUnchangedThenChangedCountsUnchangedAndIsRewritten(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            try pass(comparison, [Self.abc], expect: (3, 0, 0, 0, 0))
            try pass(
                comparison, [[Delivery("a", 1), Delivery("a", 9)], [Delivery("c", 3)], [Delivery("c", 30)]],
                expect: (0, 0, 2, 0, 2))
            let rows = try comparison.postgres.execute(
                "SELECT value, _run FROM item WHERE id IN ('a', 'c') ORDER BY id")
            #expect([rows[0, 0], rows[0, 1], rows[1, 0], rows[1, 1]] == ["9", "2", "30", "2"])
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func childRowsAreReplacedForChangedParentsAndUntouchedForUnchangedOnes(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            try pass(
                comparison, [[Delivery("a", 1, tags: ["x", "y"]), Delivery("b", 2, tags: ["z"])]],
                expect: (2, 0, 0, 0, 0))
            let versions = "SELECT _key, _position, tag, xmin::text FROM item__tags ORDER BY _key, _position"
            let before = try comparison.postgres.execute(versions)
            try pass(
                comparison, [[Delivery("a", 1, tags: ["x", "y"]), Delivery("b", 2, tags: ["w", "v", "u"])]],
                expect: (0, 1, 1, 0, 0))
            let after = try comparison.postgres.execute(versions)
            #expect(
                (0..<after.count).map { "\(after[$0, 0]!)\(after[$0, 1]!)\(after[$0, 2]!)" } == [
                    "a0x", "a1y", "b0w", "b1v", "b2u",
                ])
            #expect([after[0, 3], after[1, 3]] == [before[0, 3], before[1, 3]], "a's rows were not rewritten")
            try pass(
                comparison, [[Delivery("a", 1), Delivery("b", 2, tags: ["w", "v", "u"])]], expect: (0, 1, 1, 0, 0))
            #expect(try comparison.postgres.execute("SELECT count(*) FROM item__tags WHERE _key = 'a'")[0, 0] == "0")
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func appendKeepsOneRowPerVersion(writers: WriterComparison.Writers) throws {
        try compare(.append, writers) { comparison in
            try pass(comparison, [Self.abc], expect: (3, 0, 0, 0, 0))
            try pass(comparison, [[Delivery("a", 1), Delivery("b", 20), Delivery("c", 3)]], expect: (1, 0, 2, 0, 0))
            try pass(comparison, [[Delivery("b", 2)]], expect: (0, 0, 1, 0, 0))
            let rows = try comparison.postgres.execute("SELECT value, _run FROM item WHERE id = 'b' ORDER BY value")
            #expect([rows[0, 0], rows[0, 1], rows[1, 0], rows[1, 1]] == ["2", "1", "20", "2"])
            #expect(try comparison.postgres.execute("SELECT count(*) FROM item")[0, 0] == "4")
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func appendKeepsTheLastDeliveryOfAKeyAsThePassVersion(writers: WriterComparison.Writers) throws {
        try compare(.append, writers) { comparison in
            try pass(comparison, [Self.abc], expect: (3, 0, 0, 0, 0))
            try pass(
                comparison,
                [
                    [Delivery("a", 10), Delivery("a", 11), Delivery("b", 2)], [Delivery("a", 12)],
                    [Delivery("c", 3), Delivery("c", 31)],
                ],
                expect: (2, 0, 2, 0, 2))
            let rows = try comparison.postgres.execute("SELECT id, value FROM item WHERE _run = 2 ORDER BY id")
            #expect((0..<rows.count).map { "\(rows[$0, 0]!)=\(rows[$0, 1]!)" } == ["a=12", "c=31"])
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func replaceDeletesUndeliveredRowsLeavingTombstones(writers: WriterComparison.Writers) throws {
        try compare(.replace, writers) { comparison in
            try pass(
                comparison, [[Delivery("a", 1, tags: ["x"]), Delivery("b", 2, tags: ["y"]), Delivery("c", 3)]],
                expect: (3, 0, 0, 0, 0))
            try pass(comparison, [[Delivery("a", 1, tags: ["x"])], [Delivery("d", 4)]], expect: (1, 0, 1, 2, 0))
            let tombstones = try comparison.postgres.execute(
                "SELECT key, key_values::text, run FROM _tombstones ORDER BY key")
            #expect(
                (0..<tombstones.count).map { "\(tombstones[$0, 0]!) \(tombstones[$0, 1]!) \(tombstones[$0, 2]!)" } == [
                    #"b ["b"] 2"#, #"c ["c"] 2"#,
                ])
            #expect(try comparison.postgres.execute("SELECT string_agg(_key, ',') FROM item__tags")[0, 0] == "a")
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func nullValuesStayNull(writers: WriterComparison.Writers) throws {
        try compare(.merge, writers) { comparison in
            try pass(comparison, [[Delivery("a", nil)]], expect: (1, 0, 0, 0, 0))
            try pass(comparison, [[Delivery("a", nil)]], expect: (0, 0, 1, 0, 0))
            try pass(comparison, [[Delivery("a", 1)]], expect: (0, 1, 0, 0, 0))
            try pass(comparison, [[Delivery("a", nil)]], expect: (0, 1, 0, 0, 0))
            #expect(try comparison.postgres.execute("SELECT value IS NULL FROM item")[0, 0] == "t")
        }
    }

    @Test(arguments: WriterComparison.Writers.allCases)
    func keysWithQuotesBackslashesAndCommasAreLookedUpExactly(writers: WriterComparison.Writers) throws {
        let keys = [#"a"b"#, #"back\slash"#, "comma,brace{}", "NULL", "", "café 🍐", "tab\there"]
        try PostgresTestServer.withSchema { connection, _ in
            let rows = try connection.execute("SELECT unnest($1::text[])", [PostgresSQL.arrayLiteral(keys + [nil])])
            #expect((0..<rows.count).map { rows[$0, 0] } == keys + [nil])
        }
        try compare(.merge, writers) { comparison in
            let deliveries = keys.enumerated().map { Delivery($1, Int64($0)) }
            try pass(comparison, [deliveries, deliveries], expect: (7, 0, 0, 0, 7))
            try pass(comparison, [deliveries], expect: (0, 0, 7, 0, 0))
        }
    }

    @Test func aKeyDeliveredAgainAfterItsHeldBatchWasSentIsLookedUpWithTheNextBatch() throws {
        let batch = PostgresEntityWriter.directBatch
        let many = (0..<batch).map { Delivery("k\($0)", Int64($0)) }
        try compare(.merge) { comparison in
            // The first batch is sent whole; k1 is then doubtful (the filter has seen it, no
            // held record has it), and delivered again before it was looked up.
            try pass(
                comparison, [many, [Delivery("k1", -1), Delivery("new", 7)], [Delivery("k1", -2, tags: ["t"])]],
                expect: (batch + 1, 0, 0, 0, 2))
            #expect(try comparison.postgres.execute("SELECT value FROM item WHERE id = 'k1'")[0, 0] == "-2")
            #expect(try comparison.postgres.execute("SELECT count(*) FROM item")[0, 0] == String(batch + 1))
        }
    }

    @Test func aNewKeyTheBloomFilterMayHaveSeenIsLookedUpAndInserted() throws {
        let first = (0..<3_000).map { Delivery("k\($0)", Int64($0)) }
        var filter = KeyFilter()
        for delivery in first { filter.insert(KeyFilter.hash(key: delivery.id, salt: 0)) }
        let stranger = try #require(
            (0..<1_000_000).lazy.map { "f\($0)" }.first { filter.mightContain(KeyFilter.hash(key: $0, salt: 0)) },
            "no key the filter wrongly may have seen")
        try compare(.merge) { comparison in
            // The stranger is doubtful until k5's second delivery sends the held records; k5's
            // third is doubtful too, and found in the table when the pass ends.
            try pass(
                comparison, [first, [Delivery(stranger, 1, tags: ["s"]), Delivery("k5", 50)], [Delivery("k5", 51)]],
                expect: (3_001, 0, 0, 0, 2))
            let rows = try comparison.postgres.execute(
                "SELECT (SELECT value FROM item WHERE id = $1), (SELECT value FROM item WHERE id = 'k5'), (SELECT string_agg(tag, ',') FROM item__tags WHERE _key = $1)",
                [stranger])
            #expect([rows[0, 0], rows[0, 1], rows[0, 2]] == ["1", "51", "s"])
        }
    }

    @Test func aValueRefusedInABatchTheWriterDidNotWaitForNamesItsRecordAtItsNextStatement() throws {
        let batch = PostgresEntityWriter.directBatch
        try PostgresTestServer.withSchema { connection, schema in
            _ = try WriterComparison(mode: .merge, postgres: connection, schema: schema)
            try connection.execute("ALTER TABLE item ADD CHECK (value <> \(batch - 1))")
            func records(_ range: Range<Int>) throws -> [EntityRecord] {
                try WriterComparison.records(range.map { Delivery("k\($0)", Int64($0)) })
            }
            let writer = PostgresEntityWriter(
                schema: WriterComparison.schema, mode: .merge, feed: "items", run: 1, stamp: WriterComparison.stamp(1),
                connection: connection)
            func write(_ records: [EntityRecord]) throws {
                try writer.write(
                    records, hashes: records.map { ContentHash.of($0, fields: ContentHash()) }, in: connection)
            }
            try connection.execute("BEGIN")
            defer { _ = try? connection.execute("ROLLBACK") }
            // The held batch's COPY is sent, not waited for; a write that only holds records
            // leaves it to the server, and the writer's next statement reads its outcome.
            try write(try records(0..<batch))
            try write(try records(batch..<batch + 1))
            #expect(writer.unsettledCopy?.keys.count == batch)
            let error = try #require(throws: PostgresEntityError.self) { try writer.sendDirect(connection) }
            #expect(error.table == PostgresSQL.identifier("item"))
            #expect(error.key == "k\(batch - 1)")
        }
    }

    @Test func aKeyDeliveredAgainWhileItsBatchsEntityRowsAreDeferredIsFoundInTheTable() throws {
        let batch = PostgresEntityWriter.directBatch
        let many = (0..<batch).map { Delivery("k\($0)", Int64($0), tags: ["t\($0 % 3)"]) }
        try compare(.merge) { comparison in
            // The first batch's child rows are sent and its entity rows deferred; k1, delivered
            // again, is looked up once they are in the table.
            try pass(
                comparison, [many, [Delivery("k1", -1), Delivery("new", 7)], [Delivery("k1", -2, tags: ["u"])]],
                expect: (batch + 1, 0, 0, 0, 2))
            #expect(try comparison.postgres.execute("SELECT value FROM item WHERE id = 'k1'")[0, 0] == "-2")
            #expect(try comparison.postgres.execute("SELECT count(*) FROM item__tags")[0, 0] == String(batch))
        }
    }

    /// A writer of `WriterComparison`'s entity inside `BEGIN`, its records with a tag each.
    func deferringWriter(
        _ connection: PostgresConnection, schema: String,
        _ body: (PostgresEntityWriter, (Range<Int>) throws -> Void) throws -> Void
    ) throws {
        _ = try WriterComparison(mode: .merge, postgres: connection, schema: schema)
        let writer = PostgresEntityWriter(
            schema: WriterComparison.schema, mode: .merge, feed: "items", run: 1, stamp: WriterComparison.stamp(1),
            connection: connection)
        func write(_ range: Range<Int>) throws {
            let records = try WriterComparison.records(range.map { Delivery("k\($0)", Int64($0), tags: ["t"]) })
            try writer.write(records, hashes: records.map { ContentHash.of($0, fields: ContentHash()) }, in: connection)
        }
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        try body(writer, write)
    }

    @Test func aBatchsDeferredEntityRowsAreSentOnceHalfTheNextBatchIsHeld() throws {
        let batch = PostgresEntityWriter.directBatch
        try PostgresTestServer.withSchema { connection, schema in
            try deferringWriter(connection, schema: schema) { writer, write in
                try write(0..<batch)
                #expect(writer.deferredCopy?.table == PostgresSQL.identifier("item"))
                #expect(writer.unsettledCopy?.table == PostgresSQL.identifier("item__tags"))
                try write(batch..<batch + PostgresEntityWriter.deferredAfter - 1)
                #expect(writer.deferredCopy != nil)
                try write(batch + PostgresEntityWriter.deferredAfter - 1..<batch + PostgresEntityWriter.deferredAfter)
                #expect(writer.deferredCopy == nil)
                #expect(writer.unsettledCopy?.table == PostgresSQL.identifier("item"))
                #expect(writer.unsettledCopy?.keys.count == batch)
                try writer.sendDirect(connection)
                #expect(
                    try connection.execute("SELECT count(*) FROM item")[0, 0]
                        == String(batch + PostgresEntityWriter.deferredAfter))
            }
        }
    }

    @Test func aValueRefusedInADeferredCopyNamesItsRecordAtTheWritersNextStatement() throws {
        let batch = PostgresEntityWriter.directBatch
        try PostgresTestServer.withSchema { connection, schema in
            try deferringWriter(connection, schema: schema) { writer, write in
                try connection.execute("ALTER TABLE item ADD CHECK (value <> \(batch - 2))")
                try write(0..<batch)
                try write(batch..<batch + 1)
                #expect(writer.deferredCopy?.rows.count == batch)
                let error = try #require(throws: PostgresEntityError.self) { try writer.sendDirect(connection) }
                #expect(error.table == PostgresSQL.identifier("item"))
                #expect(error.key == "k\(batch - 2)")
            }
        }
    }

    @Test(arguments: WriteMode.allCases, [17, 4242])
    func randomPassesMatchTheSQLiteWriter(mode: WriteMode, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        try compare(mode) { comparison in
            for _ in 0..<12 {
                let batches = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                        let tags = (0..<Int.random(in: 0...2, using: &generator)).map { "t\($0)" }
                        return Delivery(
                            "k\(Int.random(in: 0..<10, using: &generator))", Int64.random(in: 0..<3, using: &generator),
                            tags: tags)
                    }
                }
                let outcome = try comparison.pass(batches)
                #expect(outcome.postgres == outcome.sqlite)
                #expect(outcome.postgresNote == outcome.sqliteNote)
                let rows = try comparison.rows()
                #expect(rows.postgres == rows.sqlite)
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so a random scenario is the same every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
