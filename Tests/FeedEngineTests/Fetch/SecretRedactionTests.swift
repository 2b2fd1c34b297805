import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Secrets stay out of errors and the cache")
struct SecretRedactionTests {
    let fetcher = StandardFetcher()
    let secret = "s3cr3t-key-123"

    @Test func secretIsNotInTheThrownError() async throws {
        let server = try LoopbackServer { _ in .status(500) }
        defer { server.stop() }
        let redactor = Redactor(secrets: [secret])
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/rates?access_key=\(secret)")),
                context: testContext(policy: testPolicy(retries: 1), redactor: redactor))
        }
        let description = try #require(error).description
        #expect(!description.contains(secret))
        #expect(description.contains("access_key=***"))
        // The real URL went to the server.
        #expect(server.requests.first?.query("access_key") == secret)
    }

    @Test func secretIsNotInTheTransportError() async throws {
        let server = try LoopbackServer { _ in .status(200) }
        let url = server.url("/rates?access_key=\(secret)")
        server.stop()
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: url),
                context: testContext(policy: testPolicy(retries: 0), redactor: Redactor(secrets: [secret])))
        }
        #expect(!(try #require(error).description.contains(secret)))
    }

    @Test func secretIsNotInTheCacheEntry() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let response = try await fetcher.fetch(
            FetchRequest(url: server.url("/rates?access_key=\(secret)")),
            context: testContext(redactor: Redactor(secrets: [secret])))
        let entry = try #require(response.cacheUpdate)
        #expect(!entry.url.contains(secret))
        #expect(!entry.key.contains(secret))
        #expect(!response.url.contains(secret))
        #expect(entry.url.hasSuffix("access_key=***"))
    }
}
