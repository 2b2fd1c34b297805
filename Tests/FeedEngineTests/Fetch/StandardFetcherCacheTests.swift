import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("StandardFetcher cache and offline")
struct StandardFetcherCacheTests {
    let fetcher = StandardFetcher()

    @Test func successfulResponseCarriesACacheUpdate() async throws {
        let server = try LoopbackServer { _ in
            .json("[1]").header("ETag", "\"v1\"").header("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")
        }
        defer { server.stop() }
        let request = FetchRequest(url: server.url("/items"))
        let response = try await fetcher.fetch(request, context: testContext())
        let update = try #require(response.cacheUpdate)
        #expect(update.key == request.cacheKey)
        #expect(update.etag == "\"v1\"")
        #expect(update.lastModified == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(update.body == Data("[1]".utf8))
    }

    @Test func uncacheableRequestHasNoCacheUpdate() async throws {
        let server = try LoopbackServer { _ in .json("[1]") }
        defer { server.stop() }
        let response = try await fetcher.fetch(
            FetchRequest(url: server.url("/"), cacheable: false), context: testContext())
        #expect(response.cacheUpdate == nil)
    }

    @Test func etagAnsweredWithNotModifiedReturnsTheCachedBody() async throws {
        let server = try LoopbackServer { request in
            request.header("If-None-Match") == "\"v1\"" ? .status(304) : .json("[1,2]").header("ETag", "\"v1\"")
        }
        defer { server.stop() }
        let cache = InMemoryResponseCache()
        let request = FetchRequest(url: server.url("/items"))
        let first = try await fetcher.fetch(request, context: testContext(cache: cache))
        cache.store(try #require(first.cacheUpdate))

        let later = Date().addingTimeInterval(3600)
        let second = try await fetcher.fetch(request, context: testContext(cache: cache, now: { later }))
        #expect(second.origin == .notModified)
        #expect(second.text == "[1,2]")
        #expect(second.cacheUpdate?.fetchedAt == later)
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
    }

    @Test func withinMaxAgeNoRequestIsMade() async throws {
        let server = try LoopbackServer { _ in .json("new") }
        defer { server.stop() }
        let cache = InMemoryResponseCache()
        let request = FetchRequest(url: server.url("/rates"), maxAge: .minutes(1))
        cache.store(cachedEntry(for: request, body: "old", age: 10))
        let response = try await fetcher.fetch(request, context: testContext(cache: cache))
        #expect(response.origin == .fresh)
        #expect(response.text == "old")
        #expect(response.attempts == 0)
        #expect(server.requestCount == 0)
    }

    @Test func pastMaxAgeTheRequestIsMade() async throws {
        let server = try LoopbackServer { _ in .json("new") }
        defer { server.stop() }
        let cache = InMemoryResponseCache()
        let request = FetchRequest(url: server.url("/rates"), maxAge: .minutes(1))
        cache.store(cachedEntry(for: request, body: "old", age: 120))
        let response = try await fetcher.fetch(request, context: testContext(cache: cache))
        #expect(response.origin == .network)
        #expect(response.text == "new")
    }

    @Test func deadServerWithCacheYieldsStale() async throws {
        let server = try LoopbackServer { _ in .json("live") }
        let request = FetchRequest(url: server.url("/items"))
        server.stop()
        let cache = InMemoryResponseCache()
        let now = Date()
        cache.store(cachedEntry(for: request, body: "cached", age: 300, now: now))
        let response = try await fetcher.fetch(request, context: testContext(cache: cache, now: { now }))
        #expect(response.origin == .stale(age: 300))
        #expect(response.text == "cached")
        #expect(response.attempts == 3)
    }

    @Test func deadServerWithoutCacheThrows() async throws {
        let server = try LoopbackServer { _ in .json("live") }
        let request = FetchRequest(url: server.url("/items"))
        server.stop()
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(request, context: testContext())
        }
        guard case .transport = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(error?.attempts == 3)
    }

    @Test func serverErrorsWithCacheYieldStale() async throws {
        let server = try LoopbackServer { _ in .status(502) }
        defer { server.stop() }
        let cache = InMemoryResponseCache()
        let request = FetchRequest(url: server.url("/items"))
        cache.store(cachedEntry(for: request, body: "cached", age: 60))
        let response = try await fetcher.fetch(request, context: testContext(cache: cache))
        #expect(response.isStale)
        #expect(response.text == "cached")
    }

    @Test func offlineUsesOnlyTheCache() async throws {
        let server = try LoopbackServer { _ in .json("live") }
        defer { server.stop() }
        let cache = InMemoryResponseCache()
        let request = FetchRequest(url: server.url("/items"))
        let now = Date()
        cache.store(cachedEntry(for: request, body: "cached", age: 42, now: now))
        let response = try await fetcher.fetch(request, context: testContext(cache: cache, offline: true, now: { now }))
        #expect(response.origin == .stale(age: 42))
        #expect(response.text == "cached")
        #expect(server.requestCount == 0)
    }

    @Test func offlineWithinMaxAgeIsFresh() async throws {
        let cache = InMemoryResponseCache()
        let request = FetchRequest(url: "http://127.0.0.1:9/items", maxAge: .hours(1))
        cache.store(cachedEntry(for: request, body: "cached", age: 5))
        let response = try await fetcher.fetch(request, context: testContext(cache: cache, offline: true))
        #expect(response.origin == .fresh)
    }

    @Test func offlineWithoutCacheThrows() async throws {
        let server = try LoopbackServer { _ in .json("live") }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(FetchRequest(url: server.url("/items")), context: testContext(offline: true))
        }
        #expect(error?.kind == .offlineWithoutCache)
        #expect(server.requestCount == 0)
    }
}
