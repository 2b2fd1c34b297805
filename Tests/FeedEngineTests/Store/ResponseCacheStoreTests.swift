import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Response cache in the store")
struct ResponseCacheStoreTests {
    @Test(arguments: HarnessStore.available)
    func aLargeBodyIsKeptCompressedAndServesAConditionalRequest(driver: HarnessStore) async throws {
        let body = itemsJSON((0..<200).map { ("key-\($0)", $0) })
        let server = try LoopbackServer { request in
            request.header("If-None-Match") == "\"v1\"" ? .status(304) : .data(body, headers: [("ETag", "\"v1\"")])
        }
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: items, adapter: items, url: \"\(server.url("/items"))\" }\n", store: driver)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.counts.inserted == 200)

        let cached = try #require(
            try await harness.rows("SELECT length(body) AS stored, body_size FROM _http_cache_body").first)
        #expect(cached["body_size"] == .integer(Int64(body.count)))
        if case .integer(let stored)? = cached["stored"] { #expect(Int(stored) < body.count / 4) }

        let second = try #require(try await harness.run().feeds.first)
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
        #expect((second.counts.inserted, second.counts.updated, second.counts.unchanged) == (0, 0, 200))
        let response = try #require(
            try await harness.config().readingStore().cachedResponse(
                forKey: (FetchRequest(url: server.url("/items"))).cacheKey))
        #expect(response.body == body)
    }

    @Test(arguments: HarnessStore.available)
    func anEntryReadsBackWithItsValidatorsHeadersAndTime(driver: HarnessStore) async throws {
        let body = itemsJSON([("k", 1)])
        let modified = "Wed, 21 Oct 2015 07:28:00 GMT"
        let server = try LoopbackServer { _ in .data(body, headers: [("ETag", "\"v1\""), ("Last-Modified", modified)]) }
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: items, adapter: items, url: \"\(server.url("/items"))\" }\n", store: driver)
        let before = Date()
        _ = try await harness.run()
        let after = Date()

        let store = try harness.config().readingStore()
        let key = FetchRequest(url: server.url("/items")).cacheKey
        let entry = try #require(try await store.cachedResponse(forKey: key))
        #expect(entry.body == body)
        #expect(
            [entry.url, String(entry.status), entry.etag, entry.lastModified] == [
                server.url("/items"), "200", "\"v1\"", modified,
            ])
        #expect(entry.headers.values.contains("\"v1\""))
        #expect(entry.fetchedAt >= before.addingTimeInterval(-1) && entry.fetchedAt <= after.addingTimeInterval(1))
        #expect(try await store.cachedResponse(forKey: key, includingBody: false)?.body == nil)

        let listed = try await store.cachedResponses(feed: "items")
        #expect(listed.keys.sorted() == [key])
        #expect(listed[key]?.body == nil)
        #expect(listed[key]?.etag == "\"v1\"")
        #expect(listed[key]?.fetchedAt == entry.fetchedAt)
        #expect(try await store.holdsCachedResponses(besides: "items") == false)
        #expect(try await store.holdsCachedResponses(besides: "other") == true)
    }
}
