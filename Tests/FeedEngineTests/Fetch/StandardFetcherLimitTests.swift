import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("StandardFetcher limits, redirects and encodings")
struct StandardFetcherLimitTests {
    let fetcher = StandardFetcher()

    @Test func bodyOverTheSizeLimitIsRefused() async throws {
        let server = try LoopbackServer { _ in .text(String(repeating: "x", count: 10_000)) }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/big")), context: testContext(policy: testPolicy(maxResponseBytes: 1000)))
        }
        #expect(error?.kind == .tooLarge(limit: 1000))
        #expect(server.requestCount == 1)
    }

    /// 200 000 bytes of "a", gzip-compressed to about 200 bytes: the limit counts decoded bytes.
    @Test func gzipBombOverTheSizeLimitIsRefused() async throws {
        let bomb = try #require(
            Data(
                base64Encoded:
                    "H4sIAOkXAmsC/+3BMQEAAADCoKzrX8IM/kABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAK8Bm1Np4EANAwA="
            ))
        let server = try LoopbackServer { _ in .data(bomb, headers: [("Content-Encoding", "gzip")]) }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/bomb")),
                context: testContext(policy: testPolicy(maxResponseBytes: 10_000)))
        }
        #expect(error?.kind == .tooLarge(limit: 10_000))
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let server = try LoopbackServer { _ in .gzip(Data(#"{"fruit":"apple"}"#.utf8)) }
        defer { server.stop() }
        let response = try await fetcher.fetch(FetchRequest(url: server.url("/")), context: testContext())
        #expect(response.text == #"{"fruit":"apple"}"#)
        #expect(server.requests.first?.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test func redirectsAreFollowedUpToTheLimit() async throws {
        let server = try LoopbackServer { request in
            let hops = Int(request.path.dropFirst("/hop/".count)) ?? 0
            return hops > 0 ? .redirect(to: "/hop/\(hops - 1)") : .json("arrived")
        }
        defer { server.stop() }
        let response = try await fetcher.fetch(
            FetchRequest(url: server.url("/hop/3")), context: testContext(policy: testPolicy(maxRedirects: 3)))
        #expect(response.text == "arrived")
        #expect(server.requestCount == 4)
    }

    @Test func redirectLoopFailsWithTooManyRedirects() async throws {
        let server = try LoopbackServer { _ in .redirect(to: "/loop") }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/loop")), context: testContext(policy: testPolicy(maxRedirects: 3)))
        }
        #expect(error?.kind == .tooManyRedirects)
        #expect(error?.attempts == 1)
    }

    @Test func redirectToAnotherSchemeIsRefused() async throws {
        let server = try LoopbackServer { _ in .redirect(to: "file:///etc/passwd") }
        defer { server.stop() }
        await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/")), context: testContext(policy: testPolicy(retries: 0)))
        }
    }
}
