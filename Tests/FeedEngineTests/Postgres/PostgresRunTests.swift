import FeedKit
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine
@testable import FeedStorePostgres

/// Feeds run into a PostgreSQL store through the engine, against a real server.
@Suite("PostgreSQL store: runs")
struct PostgresRunTests {
    /// A config whose store is the test server in a new schema, with one fruit-like json feed
    /// reading `items.json` (written by the test).
    static func harness(schema: String, items: String) throws -> FeedHarness {
        let harness = try FeedHarness(registry: AdapterRegistry([ItemsAdapter.self]), yaml: try config(schema: schema))
        try harness.write("items.json", Data(items.utf8))
        return harness
    }

    /// The config of ``harness(schema:items:)``, with `options` added to the feed.
    static func config(schema: String, options: String = "") throws -> String {
        """
        store: \(try #require(PostgresTestServer.url))
        schema: \(schema)
        feeds:
          - { name: shop, adapter: items, url: items.json\(options) }
        """
    }

    static func schemaName() -> String {
        HarnessStore.schemaName("test")
    }

    static func dropping(_ schema: String, _ body: () async throws -> Void) async throws {
        guard let url = PostgresTestServer.url else { return PostgresTestServer.reportAbsence() }
        defer { _ = try? PostgresConnection(url: url).execute("DROP SCHEMA \(schema) CASCADE") }
        try await body()
    }

    static func count(_ schema: String, _ sql: String) throws -> String? {
        let connection = try PostgresConnection(url: try #require(PostgresTestServer.url))
        try connection.execute("SET search_path TO \(schema)")
        return try connection.execute(sql).first(column: 0)
    }

    @Test func aSecondPassOfTheSameRecordsChangesNothing() async throws {
        let schema = Self.schemaName()
        try await Self.dropping(schema) {
            let harness = try Self.harness(schema: schema, items: #"[{"id":"a","value":1},{"id":"b","value":2}]"#)
            let first = try await harness.run()
            #expect(first.feeds.first?.counts.inserted == 2, "\(first.feeds)")
            let second = try await harness.run()
            #expect(second.feeds.first?.counts.unchanged == 2)
            #expect(try Self.count(schema, "SELECT count(*) FROM item") == "2")
            #expect(try Self.count(schema, "SELECT string_agg(status, ',' ORDER BY id) FROM _runs") == "ok,ok")
        }
    }

    @Test func aFailedPassLeavesTheRowsAsTheyWere() async throws {
        let schema = Self.schemaName()
        try await Self.dropping(schema) {
            let harness = try Self.harness(schema: schema, items: #"[{"id":"a","value":1}]"#)
            _ = try await harness.run()
            // The second pass writes a changed record, then fails: the transaction is rolled back.
            try harness.write("items.json", Data(#"[{"id":"a","value":10},{"id":"b","value":2}]"#.utf8))
            try harness.setConfig(try Self.config(schema: schema, options: ", fail_after: 1"))
            let failed = try await harness.run()
            #expect(failed.feeds.first?.status == .failed)
            #expect(try Self.count(schema, "SELECT string_agg(value::text, ',') FROM item") == "1")
        }
    }

    @Test func aFeedAnotherPassHoldsIsReportedBusy() async throws {
        let schema = Self.schemaName()
        try await Self.dropping(schema) {
            let harness = try Self.harness(schema: schema, items: #"[{"id":"a","value":1}]"#)
            _ = try await harness.run()
            let url = try #require(PostgresTestServer.url)
            let held = try await PostgresFeedLease.take(
                pool: PostgresConnectionPool(url: url), schema: schema, feed: "shop", wait: .zero)
            var engine = try await Engine.open(try harness.config())
            engine.wait = .milliseconds(200)
            let report = try #require(await engine.run().feeds.first)
            #expect(report.status == .failed)
            #expect(report.error?.contains("feed busy: another pass of 'shop' is running") == true, "\(report)")
            held.release()
            #expect(try await harness.run().feeds.first?.status == .ok)
        }
    }
}
