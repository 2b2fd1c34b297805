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
            let tables = try await store.read { connection in
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
            #expect(try await store.completeRun() == id - 1)
            try await store.writeSQL { try StoreRuns.record(id, outcome: Self.outcome(.ok, inserted: 7), in: $0) }
            let runs = try await store.runs(feed: "shop", limit: 10)
            #expect(runs.count == 1)
            #expect(runs.first?.startedAt == "2026-01-01T00:00:00.000Z")
            #expect(runs.first?.finishedAt == "2026-01-01T00:00:01.500Z")
            #expect(runs.first?.durationMilliseconds == 1500)
            #expect(runs.first?.inserted == 7)
            #expect(runs.first?.status == "ok")
            #expect(try await store.completeRun() == id)
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

    @Test func aCachedResponseComesBackByteForByteCompressedOrNot() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let body = Data([0, 1, 2, 255, 10, 13, 92, 0]) + Data(repeating: 65, count: 5000)
            let entry = CachedResponse(
                key: "k", url: "https://api/items", status: 200, headers: ["etag": "\"v1\""], etag: "\"v1\"",
                lastModified: nil, fetchedAt: Date(timeIntervalSince1970: 1_767_225_600.25), body: body)
            let write = CacheWrite(entry)
            #expect(write.compressed != nil)
            try await store.writeSQL { try StoreCacheWrites.store([write], feed: "shop", in: $0) }
            let read = try #require(try await store.cachedResponse(forKey: "k", includingBody: true))
            #expect(read.body == body)
            #expect(read.etag == "\"v1\"")
            #expect(read.headers == ["etag": "\"v1\""])
            #expect(read.fetchedAt == Date(timeIntervalSince1970: 1_767_225_600.25))
            #expect(try await store.cachedResponse(forKey: "k", includingBody: false)?.body == nil)
            var copy = entry
            copy.key = "plain"
            copy.body = body.prefix(100)  // too small to be worth deflating
            let plain = CacheWrite(copy)
            #expect(plain.compressed == nil)
            try await store.writeSQL { try StoreCacheWrites.store([plain], feed: "shop", in: $0) }
            #expect(try await store.cachedResponse(forKey: "plain", includingBody: true)?.body == body.prefix(100))
        }
    }

    @Test func aPassesCachedResponsesAreSentTogetherAndEachComesBack() async throws {
        try await PostgresTestServer.withStore { store, _ in
            // More than a statement's worth, and not a multiple of it; keys, headers and bodies
            // with what an array literal escapes.
            let keys = [#"a"b"#, #"back\slash"#, "comma,{brace}", "NULL", ""] + (0..<8).map { "page-\($0)" }
            #expect(keys.count > PassWriter.cacheBatch)
            func entry(_ key: String, _ number: Int) -> CachedResponse {
                CachedResponse(
                    key: key, url: "https://api/items?page=\(number)", status: 200 + number,
                    headers: ["etag": "\"v\(number)\"", "x-note": #"back\slash "quoted""#],
                    etag: number % 2 == 0 ? "\"v\(number)\"" : nil,
                    lastModified: number % 3 == 0 ? "Wed, 21 Oct 2015 07:28:00 GMT" : nil,
                    fetchedAt: Date(timeIntervalSince1970: 1_767_225_600.25 + Double(number)),
                    body: number % 2 == 0
                        ? Data(repeating: UInt8(number), count: 5000) : Data([0, 92, 34, 123, UInt8(number)]))
            }
            let transaction = store.passTransaction(
                feed: "shop", run: 1, stamp: "2026-01-01T00:00:00.000Z", bindings: [])
            for (number, key) in keys.enumerated() {
                let write = CacheWrite(entry(key, number))
                try await transaction.send { try $0.storeCache(write) }
            }
            // A key stored again while it is held: the last one wins.
            let again = CacheWrite(entry("page-0", 99))
            try await transaction.send { try $0.storeCache(again) }
            try await transaction.finish(commit: true)
            #expect(try await store.cachedResponses(feed: "shop").keys.sorted() == keys.sorted())
            for (number, key) in keys.enumerated() {
                let expected = key == "page-0" ? entry(key, 99) : entry(key, number)
                let read = try #require(try await store.cachedResponse(forKey: key, includingBody: true))
                #expect(read.body == expected.body, "\(key)")
                #expect(
                    [read.url, String(read.status), read.etag ?? "-", read.lastModified ?? "-"] == [
                        expected.url, String(expected.status), expected.etag ?? "-", expected.lastModified ?? "-",
                    ], "\(key)")
                #expect(read.headers == expected.headers, "\(key)")
                #expect(read.fetchedAt == expected.fetchedAt, "\(key)")
            }
        }
    }

    @Test func aPassesStateIsHeldAndTheLastValueOfEachKeyIsCommitted() async throws {
        try await PostgresTestServer.withStore { store, _ in
            try await store.writeSQL { connection in
                try StoreState.set(["old": "kept until removed"], feed: "shop", in: connection)
                try StoreState.set(["other": "x"], feed: "elsewhere", in: connection)
            }
            // More keys than are held before they are sent, values with what an array literal
            // escapes, keys set twice, removed after being set, and one removed that was stored.
            let keys = (0..<(PassWriter.heldLimit + 3)).map { "page.\($0)" }
            let odd = #"{"a":"b\\c","d":[1,2]} NULL, "q""#
            let transaction = store.passTransaction(
                feed: "shop", run: 1, stamp: "2026-01-01T00:00:00.000Z", bindings: [])
            for key in keys {
                try await transaction.send { try $0.setState(key, "first \(key)") }
            }
            for key in keys.prefix(3) {
                try await transaction.send { try $0.setState(key, odd + key) }
            }
            try await transaction.send { try $0.setState("page.5", nil) }
            try await transaction.send { try $0.setState("old", nil) }
            try await transaction.send { try $0.setState("late", "") }
            try await transaction.finish(commit: true)
            var expected = Dictionary(uniqueKeysWithValues: keys.map { ($0, "first \($0)") })
            for key in keys.prefix(3) { expected[key] = odd + key }
            expected["page.5"] = nil
            #expect(try await store.states(feed: "shop", prefix: "page.") == expected)
            #expect(try await store.state(feed: "shop", key: "old") == nil)
            #expect(try await store.state(feed: "shop", key: "late") == "")
            #expect(try await store.state(feed: "elsewhere", key: "other") == "x")
            // A pass rolled back stores none of its held state.
            let failed = store.passTransaction(feed: "shop", run: 2, stamp: "2026-01-01T00:00:01.000Z", bindings: [])
            try await failed.send { try $0.setState("page.0", "rolled back") }
            try await failed.finish(commit: false)
            #expect(try await store.state(feed: "shop", key: "page.0") == odd + "page.0")
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
