import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `FetchRequest.omitsUnchangedBody`: an unchanged response comes without its cached body, any
/// other response with it.
@Suite("StandardFetcher: omitted unchanged bodies")
struct OmittedBodyTests {
    let fetcher = StandardFetcher()

    /// A server answering 304 to `"v1"`, and a cache holding its first response.
    func cachedServer() async throws -> (LoopbackServer, InMemoryResponseCache) {
        let server = try LoopbackServer { request in
            request.header("If-None-Match") == "\"v1\"" ? .status(304) : .json("[1,2]").header("ETag", "\"v1\"")
        }
        let cache = InMemoryResponseCache()
        let first = try await fetcher.fetch(FetchRequest(url: server.url("/items")), context: testContext(cache: cache))
        cache.store(try #require(first.cacheUpdate))
        return (server, cache)
    }

    @Test func aNotModifiedAnswerComesWithoutTheBody() async throws {
        let (server, cache) = try await cachedServer()
        defer { server.stop() }
        var request = FetchRequest(url: server.url("/items"))
        request.omitsUnchangedBody = true
        let response = try await fetcher.fetch(request, context: testContext(cache: cache))
        #expect(response.origin == .notModified)
        #expect(response.bodyIsOmitted)
        #expect(response.body.isEmpty)
        #expect(response.headers["etag"] == "\"v1\"", "the cached headers still tell which page it is")
        #expect(server.requests.last?.header("If-None-Match") == "\"v1\"")
    }

    @Test func aFreshCacheHitComesWithoutTheBody() async throws {
        let cache = InMemoryResponseCache()
        var request = FetchRequest(url: "http://127.0.0.1:9/rates", maxAge: .minutes(1))
        cache.store(cachedEntry(for: request, body: "old", age: 10))
        request.omitsUnchangedBody = true
        let response = try await fetcher.fetch(request, context: testContext(cache: cache))
        #expect(response.origin == .fresh)
        #expect(response.bodyIsOmitted && response.body.isEmpty)
    }

    @Test func aStaleFallbackAlwaysCarriesTheBody() async throws {
        let (server, cache) = try await cachedServer()
        let url = server.url("/items")
        server.stop()
        var request = FetchRequest(url: url)
        request.omitsUnchangedBody = true
        let response = try await fetcher.fetch(request, context: testContext(cache: cache))
        #expect(response.isStale)
        #expect(!response.bodyIsOmitted)
        #expect(response.text == "[1,2]")
    }

    @Test func anOfflineRunAlwaysGetsTheBody() async throws {
        let (server, cache) = try await cachedServer()
        defer { server.stop() }
        var request = FetchRequest(url: server.url("/items"))
        request.omitsUnchangedBody = true
        let response = try await fetcher.fetch(request, context: testContext(cache: cache, offline: true))
        #expect(response.isStale)
        #expect(response.text == "[1,2]")
    }

    @Test func aRecordingKeepsTheBodyEvenWhenTheAdapterWouldSkipIt() async throws {
        let (server, cache) = try await cachedServer()
        defer { server.stop() }
        let recorder = RecordingFetcher()
        var request = FetchRequest(url: server.url("/items"))
        request.omitsUnchangedBody = true
        _ = try await recorder.fetch(request, context: testContext(cache: cache))
        let recorded = try #require(recorder.responses.last)
        #expect(String(decoding: recorded.body, as: UTF8.self) == "[1,2]")
    }
}
