import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// The PostgreSQL writer's throughput, run by hand (not a timed unit test): N records of
/// W1's shape (Benchmarks/run.sh) with 2 child rows each, written in batches of 1,000 into an
/// empty table, then again unchanged; next to the floor, `psql` `\copy` of the same rows from
/// CSV files into tables of the same shape, keys included.
///
/// ```sh
/// FEEDWORK_PG_BENCHMARK=100000 FEEDWORK_TEST_POSTGRES_URL=... \
///     swift test --skip-build --filter PostgresWriterBenchmark
/// ```
@Suite("PostgreSQL writer benchmark")
struct PostgresWriterBenchmark {
    static let size = ProcessInfo.processInfo.environment["FEEDWORK_PG_BENCHMARK"].flatMap { Int($0) }

    static let schema = EntitySchema(
        name: "item",
        columns: [
            Column("id", .integer), Column("name", .text), Column("price", .decimal), Column("updated_at", .timestamp),
            Column("meta_source", .text), Column("meta_rank", .integer),
        ],
        key: ["id"], children: [ChildSchema(name: "tags", columns: [Column("value", .text)])])

    static func records(_ count: Int) throws -> [EntityRecord] {
        try (0..<count).map { id in
            try EntityRecord(
                schema: schema,
                values: [
                    .integer(Int64(id)), .text("item \(id)"),
                    .text("\(id % 1000).\(id % 100 < 10 ? "0" : "")\(id % 100)"),
                    .text("2026-01-\(10 + id % 20)T10:\(10 + id % 50):00Z"), .text("source-\(id % 7)"),
                    .integer(Int64(id % 1000)),
                ],
                children: ["tags": [[.text("tag-\(id % 13)")], [.text("tag-\(id % 17)")]]])
        }
    }

    /// Seconds taken by `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// CPU seconds this process has used (user and system): the client's share of a pass.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// One pass of `records` in batches of 1,000, in one transaction; its counts.
    static func pass(
        _ records: [EntityRecord], hashes: [Int64], run: Int64, stamp: String, in connection: PostgresConnection
    ) throws -> WriteCounts {
        let writer = PostgresEntityWriter(
            schema: schema, mode: .merge, feed: "w1", run: run, stamp: stamp, connection: connection)
        try connection.execute("BEGIN")
        var start = 0
        while start < records.count {
            let end = min(start + 1000, records.count)
            try writer.write(Array(records[start..<end]), hashes: Array(hashes[start..<end]), in: connection)
            start = end
        }
        try writer.sendDirect(connection)
        try connection.execute("COMMIT")
        return writer.tally.counts
    }

    /// Writes the rows as the first pass stored them into CSV files, and times `psql` `\copy`
    /// of them into empty tables of the same shape in `schema`.
    static func floor(
        _ records: [EntityRecord], hashes: [Int64], url: String, schema: String, connection: PostgresConnection
    ) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-floor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var items = ""
        var tags = ""
        for (record, hash) in zip(records, hashes) {
            let values = record.values.map { PostgresCopyText.text($0) ?? "" }
            items +=
                (["w1", record.key, String(hash), "1", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"] + values)
                .joined(separator: ",") + "\n"
            for (position, row) in (record.children["tags"] ?? []).enumerated() {
                tags += "w1,\(record.key),\(position),\(PostgresCopyText.text(row[0]) ?? "")\n"
            }
        }
        try items.write(to: folder.appendingPathComponent("item.csv"), atomically: true, encoding: .utf8)
        try tags.write(to: folder.appendingPathComponent("tags.csv"), atomically: true, encoding: .utf8)
        try connection.execute("CREATE SCHEMA floor_\(schema)")
        defer { _ = try? connection.execute("DROP SCHEMA floor_\(schema) CASCADE") }
        try connection.execute("SET search_path TO floor_\(schema)")
        try EntityTable.ensure(Self.schema, on: PostgresSQLConnection(connection: connection))
        try connection.execute("SET search_path TO \(schema)")
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        psql.arguments = [
            url, "-v", "ON_ERROR_STOP=1", "-q", "-1",
            "-c", "SET search_path TO floor_\(schema)",
            "-c", "\\copy item FROM '\(folder.path)/item.csv' CSV",
            "-c", "\\copy item__tags FROM '\(folder.path)/tags.csv' CSV",
        ]
        return try seconds {
            try psql.runSerialized()
            psql.waitUntilExit()
            if psql.terminationStatus != 0 { Issue.record("psql failed: \(psql.terminationStatus)") }
        }
    }

    @Test(.enabled(if: size != nil, "set FEEDWORK_PG_BENCHMARK to the number of records"))
    func throughput() throws {
        let size = try #require(Self.size)
        try PostgresTestServer.withSchema { connection, schema in
            let url = try #require(PostgresTestServer.url)
            try EntityTable.ensure(Self.schema, on: PostgresSQLConnection(connection: connection))
            let records = try Self.records(size)
            let hashes = records.map { ContentHash.of($0, fields: ContentHash()) }
            var counts = WriteCounts()
            let cpu0 = Self.cpuSeconds()
            let first = try Self.seconds {
                counts = try Self.pass(
                    records, hashes: hashes, run: 1, stamp: "2026-01-01T00:00:00.000Z", in: connection)
            }
            #expect(counts.inserted == size)
            let cpu1 = Self.cpuSeconds()
            let second = try Self.seconds {
                counts = try Self.pass(
                    records, hashes: hashes, run: 2, stamp: "2026-01-01T00:00:01.000Z", in: connection)
            }
            #expect(counts.unchanged == size)
            let cpu2 = Self.cpuSeconds()
            let floor = try Self.floor(records, hashes: hashes, url: url, schema: schema, connection: connection)
            let figures = String(
                format: "%d records, 2 children each: first pass %.2f s (client CPU %.2f s), unchanged pass %.2f s "
                    + "(client CPU %.2f s; %.0f%% of the first); psql \\copy floor %.2f s (first pass %.2fx the floor)",
                size, first, cpu1 - cpu0, second, cpu2 - cpu1, second / first * 100, floor, first / floor)
            print("PostgreSQL writer benchmark: \(figures)")
        }
    }
}
