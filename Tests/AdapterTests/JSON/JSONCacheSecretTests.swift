import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// An API that repeats the key in its `next` links: the cached bodies are sealed before they are
/// compressed (no secret in `_http_cache`, even decompressed) and unsealed when read back.
@Suite("json adapter: secrets in cached bodies")
struct JSONCacheSecretTests {
    static let secret = "very-secret-key-91"

    /// Two pages, each over 256 bytes (so stored compressed), the first linking to the second
    /// with the caller's key, as some APIs do.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let next = page < 2 ? #","next":"/items?page=2&key=\#(request.query("key") ?? "")""# : ""
            let items = (0..<8).map { #"{"id":\#(page * 100 + $0),"name":"item number \#($0) of page \#(page)"}"# }
            return .json(#"{"items":[\#(items.joined(separator: ","))]\#(next)}"#, headers: [("ETag", "\"p\(page)\"")])
        }
    }

    static func harness(_ server: LoopbackServer) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                auth: { type: api_key, query: key, value: "${KEY}" }
                pagination: { type: next_url, next_path: next }
                records: items
                entity: item
                key: id
                fields: { id: int, name: string }
            """, environment: ["KEY": secret])
    }

    @Test func aKeyRepeatedInNextLinksIsNotInTheDecompressedCacheBodies() async throws {
        let server = try Self.server()
        let harness = try Self.harness(server)
        let report = try await harness.run()
        #expect(report.succeeded, "\(report.feeds.map(\.error))")
        #expect(server.requests.contains { $0.query("key") == Self.secret && $0.query("page") == "2" })
        let entries = try await StoredCache.decompressedEntries(storePath: try harness.config().storePath)
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { !$0.contains(Self.secret) }, "\(entries)")
        #expect(entries.contains { $0.contains("key=${KEY}") }, "the key is sealed as its variable")
    }

    @Test func anOfflinePassFollowsTheCachedNextLinkWithTheRealKey() async throws {
        let server = try Self.server()
        let harness = try Self.harness(server)
        _ = try await harness.run()
        let before = server.requests.count
        let offline = try #require(try await harness.run(offline: true).feeds.first)
        #expect(offline.status == .stale, "\(offline.error ?? "")")
        #expect(offline.counts.unchanged == 16, "both pages were read from the cache")
        #expect(server.requests.count == before)
    }
}
