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
}
