import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// The PostgreSQL store's system tables against a real server: migrations, runs, state,
/// outbox, response cache and the per-feed lease.
@Suite("PostgreSQL store: system tables")
struct PostgresStoreTests {
    static func outcome(_ status: FeedReport.Status, inserted: Int = 0) -> RunOutcome {
        var counts = WriteCounts()
        counts.inserted = inserted
        return RunOutcome(
            status: status, counts: counts, requests: 2, attempts: 3, bytes: 100, error: nil, notes: ["a", "b"],
            finished: Date(timeIntervalSince1970: 1_767_225_601.5))
    }

    @Test func openingAgainFindsTheTablesAtTheLatestVersion() async throws {
        try await PostgresTestServer.withStore { store, schema in
            let again = try PostgresStore(url: try #require(PostgresTestServer.url), schema: schema)
            let version = try await again.read { try PostgresMigrations.version($0) }
            #expect(version == PostgresMigrations.latest)
            let tables = try await store.postgres.read { connection in
                let rows = try connection.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [schema])
                return (0..<rows.count).compactMap { rows[$0, 0] }
            }
            #expect(
                tables == [
                    "_entities", "_http_cache", "_http_cache_body", "_media", "_media_urls", "_migrations", "_outbox",
                    "_rejects", "_runs", "_schedule", "_state", "_tombstones",
                ])
        }
    }

    @Test func aRunIsRecordedWithISOTimesAndItsCounts() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let id = try await store.startRun(
                feed: "shop", adapter: AdapterOrigin(name: "json", module: "JSONFeed"),
                at: Date(timeIntervalSince1970: 1_767_225_600))
            #expect(try await store.exportSnapshot { try $0.completeRun() } == id - 1)
            try await store.writeSQL { try StoreRuns.record(id, outcome: Self.outcome(.ok, inserted: 7), in: $0) }
            let runs = try await store.runs(feed: "shop", limit: 10)
            #expect(runs.count == 1)
            #expect(runs.first?.startedAt == "2026-01-01T00:00:00.000Z")
            #expect(runs.first?.finishedAt == "2026-01-01T00:00:01.500Z")
            #expect(runs.first?.durationMilliseconds == 1500)
            #expect(runs.first?.inserted == 7)
            #expect(runs.first?.status == "ok")
            #expect(try await store.exportSnapshot { try $0.completeRun() } == id)
            #expect(try await store.feedsThatRan() == ["shop"])
        }
    }

    @Test func stateIsReadByKeyAndByPrefixAndRemovedWithNil() async throws {
        try await PostgresTestServer.withStore { store, _ in
            try await store.writeSQL { connection in
                try StoreState.set(["page.1": "a", "page.2": "b", "cursor": "c"], feed: "shop", in: connection)
                try StoreState.set(["page.1": "z"], feed: "other", in: connection)
            }
            #expect(try await store.state(feed: "shop", key: "cursor") == "c")
            #expect(try await store.states(feed: "shop", prefix: "page.") == ["page.1": "a", "page.2": "b"])
            try await store.writeSQL { try StoreState.set(["cursor": nil], feed: "shop", in: $0) }
            #expect(try await store.state(feed: "shop", key: "cursor") == nil)
        }
    }

    @Test func outboxEventsStayPendingUntilDelivered() async throws {
        try await PostgresTestServer.withStore { store, _ in
            try await store.writeSQL {
                try StoreOutbox.enqueue(["https://a/1", "https://a/2"], feed: "shop", run: 1, in: $0)
            }
            let pending = try await store.pendingOutbox(feed: "shop")
            #expect(pending.map(\.url) == ["https://a/1", "https://a/2"])
            try await store.markOutboxFailed(pending[0].id, error: "timeout")
            try await store.markOutboxDelivered(pending[1].id)
            #expect(try await store.pendingOutbox(feed: "shop").map(\.url) == ["https://a/1"])
        }
    }

    @Test func aFeedsLeaseIsTakenByOnePassAtATime() async throws {
        try await PostgresTestServer.withStore { store, schema in
            let url = try #require(PostgresTestServer.url)
            let first = try await PostgresFeedLease.take(
                pool: PostgresConnectionPool(url: url), schema: schema, feed: "shop", wait: .zero)
            await #expect(throws: PostgresFeedLease.Busy.self) {
                try await PostgresFeedLease.take(
                    pool: PostgresConnectionPool(url: url), schema: schema, feed: "shop", wait: .milliseconds(300))
            }
            let other = try await PostgresFeedLease.take(
                pool: PostgresConnectionPool(url: url), schema: schema, feed: "other", wait: .zero)
            first.release()
            let again = try await PostgresFeedLease.take(
                pool: PostgresConnectionPool(url: url), schema: schema, feed: "shop", wait: .zero)
            withExtendedLifetime((other, again)) {}
        }
    }

    @Test func onlyRunsWhoseFeedNoPassHoldsAreMarkedInterrupted() async throws {
        try await PostgresTestServer.withStore { store, schema in
            let url = try #require(PostgresTestServer.url)
            let held = try await store.startRun(
                feed: "busy", adapter: AdapterOrigin(name: "json", module: "JSONFeed"), at: Date())
            let orphan = try await store.startRun(
                feed: "dead", adapter: AdapterOrigin(name: "json", module: "JSONFeed"), at: Date())
            let lease = try await PostgresFeedLease.take(
                pool: PostgresConnectionPool(url: url), schema: schema, feed: "busy", wait: .zero)
            try await store.markInterruptedRuns()
            let statuses = Dictionary(
                uniqueKeysWithValues: try await store.runs(feed: nil, limit: 10).map { ($0.run, $0.status) })
            #expect(statuses[held] == "running")
            #expect(statuses[orphan] == "interrupted")
            withExtendedLifetime(lease) {}
        }
    }
}
