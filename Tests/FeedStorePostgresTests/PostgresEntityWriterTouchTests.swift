import FeedKit
import FeedStore
import Testing

@testable import FeedStorePostgres

/// Later passes of the PostgreSQL writer, where records delivered unchanged are only touched
/// (``PostgresEntityWriter/touchUnchanged(_:_:)``) and the rest go through the staging tables:
/// counts and rows must be the SQLite writer's (``WriterComparison``) when a pass mixes both
/// across batches.
@Suite("PostgreSQL entity writer: unchanged records touched")
struct PostgresEntityWriterTouchTests {
    typealias Delivery = WriterComparison.Delivery

    static let firstPass = [
        Delivery("a", 1, tags: ["x"]), Delivery("b", 2), Delivery("c", 3), Delivery("d", 4, tags: ["y", "z"]),
        Delivery("e", 5), Delivery("f", 6),
    ]

    /// Unchanged (a, c, d), changed (b, e), new (g, h) and duplicate records, across three
    /// batches: c twice in one batch; a delivered unchanged again and b changed again in a later
    /// batch; d unchanged, then changed with other tags in a later batch; h twice in one batch.
    static let mixedPass = [
        [Delivery("a", 1, tags: ["x"]), Delivery("b", 20), Delivery("g", 7), Delivery("c", 3), Delivery("c", 3)],
        [Delivery("a", 1, tags: ["x"]), Delivery("d", 4, tags: ["y", "z"]), Delivery("b", 21), Delivery("e", 50)],
        [Delivery("d", 40, tags: ["w"]), Delivery("h", 8), Delivery("h", 8)],
    ]

    /// Counts (inserted, updated, unchanged, deleted, duplicates) of the mixed pass, then of the
    /// first pass delivered again, by mode.
    @Test(arguments: [
        (WriteMode.merge, (2, 2, 3, 0, 5), (0, 3, 3, 0, 0)),
        (WriteMode.replace, (2, 2, 3, 1, 5), (1, 3, 2, 2, 0)),
    ])
    func aPassMixingUnchangedChangedNewAndDuplicateRecordsWritesWhatSQLiteWrites(
        mode: WriteMode, mixed: (Int, Int, Int, Int, Int), again: (Int, Int, Int, Int, Int)
    ) throws {
        try PostgresTestServer.withSchema { connection, schema in
            let comparison = try WriterComparison(mode: mode, postgres: connection, schema: schema)
            let writerTests = PostgresEntityWriterTests()
            try writerTests.pass(comparison, [Self.firstPass], expect: (6, 0, 0, 0, 0))
            try writerTests.pass(comparison, Self.mixedPass, expect: mixed)
            let firstAgain = [Array(Self.firstPass.prefix(3)), Array(Self.firstPass.dropFirst(3))]
            try writerTests.pass(comparison, firstAgain, expect: again)
            let rows = try comparison.rows()
            #expect(rows.postgres == rows.sqlite)
        }
    }
}
