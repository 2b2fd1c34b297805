import FeedKit
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

/// Feeds run into a PostgreSQL store through the engine, against a real server.
@Suite("PostgreSQL store: runs")
struct PostgresRunTests {
    /// A harness whose store is a schema of its own on the test server, with one feed `shop`
    /// reading `items` from `items.json`; `nil` without a server outside CI (which
    /// `HarnessStore.available` says; in CI the harness fails for want of one).
    static func harness(items: String) throws -> FeedHarness? {
        guard HarnessStore.available.contains(.postgres) else { return nil }
        let harness = try FeedHarness(registry: AdapterRegistry([ItemsAdapter.self]), yaml: config(), store: .postgres)
        try harness.write("items.json", Data(items.utf8))
        return harness
    }

    /// The config of ``harness(items:)``, with `options` added to the feed.
    static func config(options: String = "") -> String {
        "feeds:\n  - { name: shop, adapter: items, url: items.json\(options) }\n"
    }

    /// The first value of `sql`'s first row.
    static func value(_ harness: FeedHarness, _ sql: String) async throws -> FieldValue? {
        try await harness.rows(sql).first?.values.first
    }

    @Test func aSecondPassOfTheSameRecordsChangesNothing() async throws {
        guard let harness = try Self.harness(items: #"[{"id":"a","value":1},{"id":"b","value":2}]"#) else { return }
        let first = try await harness.run()
        #expect(first.feeds.first?.counts.inserted == 2, "\(first.feeds)")
        let second = try await harness.run()
        #expect(second.feeds.first?.counts.unchanged == 2)
        #expect(try await harness.count("item") == 2)
        let statuses = try await Self.value(harness, "SELECT string_agg(status, ',' ORDER BY id) FROM _runs")
        #expect(statuses == .text("ok,ok"))
    }

    @Test func aFailedPassLeavesTheRowsAsTheyWere() async throws {
        guard let harness = try Self.harness(items: #"[{"id":"a","value":1}]"#) else { return }
        _ = try await harness.run()
        // The second pass writes a changed record, then fails: the transaction is rolled back.
        try harness.write("items.json", Data(#"[{"id":"a","value":10},{"id":"b","value":2}]"#.utf8))
        try harness.setConfig(Self.config(options: ", fail_after: 1"))
        let failed = try await harness.run()
        #expect(failed.feeds.first?.status == .failed)
        #expect(try await Self.value(harness, "SELECT string_agg(value::text, ',') FROM item") == .text("1"))
    }

    @Test func aFeedAnotherPassHoldsIsReportedBusy() async throws {
        guard let harness = try Self.harness(items: #"[{"id":"a","value":1}]"#) else { return }
        _ = try await harness.run()
        let holder = try await Engine.open(try harness.config())
        do {
            // Another process's pass, as far as the store can tell: it holds the feed's lease.
            let held = try await holder.store.lease(of: "shop", wait: .milliseconds(0))
            var engine = try await Engine.open(try harness.config())
            engine.wait = .milliseconds(200)
            let report = try #require(await engine.run().feeds.first)
            #expect(report.status == .failed)
            #expect(report.error?.contains("feed busy: another pass of 'shop' is running") == true, "\(report)")
            withExtendedLifetime(held) {}
        }
        #expect(try await harness.run().feeds.first?.status == .ok, "the lease went with its holder")
        try await holder.close()
    }
}
