import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Synchronization
import Testing

/// Mirrored images behind the feed's OAuth2 token: the token of the pass goes with images on the
/// feed's own origin (``LoopbackOAuth2Server`` guards them like its API), none with others.
@Suite("json adapter: OAuth2 for mirrored images")
struct JSONMediaOAuth2Tests {
    static let image = JSONMediaTests.imageA

    /// An OAuth2 API whose `/ads` names its own `/img/<name>` images and one image on another
    /// port; `image` answers the requests for its own images (the token already checked).
    /// With `expiring`, serving `/ads` ends the life of every token handed out, so that the
    /// image requests that follow find the pass's token refused.
    final class Servers: Sendable {
        let api: LoopbackOAuth2Server
        let elsewhere: LoopbackServer
        private let holder = ServerHolder()

        init(
            images: [String] = ["a.png"], expiring: Bool = false,
            image: @escaping @Sendable (LoopbackRequest) -> LoopbackReply = { _ in
                .data(JSONMediaOAuth2Tests.image, headers: [("Content-Type", "image/png")])
            }
        ) throws {
            let elsewhere = try LoopbackServer { _ in
                .data(JSONMediaOAuth2Tests.image, headers: [("Content-Type", "image/png")])
            }
            let foreign = elsewhere.url("/b.png")
            let holder = holder
            api = try LoopbackOAuth2Server { request in
                guard request.path == "/ads" else { return image(request) }
                if expiring { holder.server.withLock { $0 }?.expireAccessTokens() }
                let own = images.enumerated().map { index, name in
                    #"{"id":\#(index + 1),"picture":"http://\#(request.header("Host") ?? "")/img/\#(name)"}"#
                }
                let all = own + [#"{"id":99,"picture":"\#(foreign)"}"#]
                return .json("{\"ads\":[" + all.joined(separator: ",") + "]}")
            }
            self.elsewhere = elsewhere
            holder.server.withLock { $0 = api }
        }

        func stop() {
            api.stop()
            elsewhere.stop()
        }

        /// The `Authorization` header of each request for the API's own images.
        var imageAuthorizations: [String?] {
            api.apiRequests.filter { $0.path.hasPrefix("/img/") }.map { $0.header("Authorization") }
        }
    }

    /// The OAuth2 server, for its own API handler, set once it is made.
    final class ServerHolder: Sendable {
        let server = Mutex<LoopbackOAuth2Server?>(nil)
    }

    static func harness(_ servers: Servers, driver: HarnessStore = .sqlite) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: servers.api.url("/ads"),
            """
                auth:
                  type: oauth2_client_credentials
                  token_url: \(servers.api.tokenURL)
                  client_id: \(servers.api.settings.clientID)
                  client_secret: "${CLIENT_SECRET}"
                records: $.ads
                entity: ad
                key: id
                fields: { id: int, picture: media }
            """, environment: ["CLIENT_SECRET": servers.api.settings.clientSecret], driver: driver)
    }

    /// Every byte of a SQLite store: the database and its write-ahead log.
    static func storeBytes(_ harness: FeedHarness) throws -> Data {
        let path = try harness.config().storePath
        return [path, path + "-wal", path + "-shm"].reduce(into: Data()) { bytes, file in
            if let data = FileManager.default.contents(atPath: file) { bytes.append(data) }
        }
    }

    /// The text of what the store keeps about media and runs: URLs, errors and notes.
    static func storedTexts(_ harness: FeedHarness) async throws -> String {
        let urls = try await harness.rows("SELECT url, last_error FROM _media_urls")
        let runs = try await harness.rows("SELECT error, notes FROM _runs")
        return (urls + runs).flatMap { $0.values.map { "\($0)" } }.joined(separator: "\n")
    }

    @Test(arguments: HarnessStore.available)
    func anImageBehindOAuth2GetsThePassTokenAndAnotherOriginNone(store: HarnessStore) async throws {
        let servers = try Servers()
        defer { servers.stop() }
        let harness = try Self.harness(servers, driver: store)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report)")
        #expect(report.media?.fetched == 2, "\(report)")
        #expect(report.media?.failed == 0, "\(report.notes)")
        // The pass's token, the one cached: no second token request.
        #expect(servers.api.tokenRequests.count == 1)
        let token = try #require(servers.api.everyToken.first)
        #expect(servers.imageAuthorizations == ["Bearer \(token)"])
        #expect(servers.elsewhere.requests.map { $0.header("Authorization") } == [nil])
        #expect(try await harness.rows("SELECT hash FROM _media").count == 1)

        let secrets = servers.api.everyToken + [servers.api.settings.clientSecret]
        let texts = try await Self.storedTexts(harness)
        for secret in secrets { #expect(!texts.contains(secret)) }
        if store == .sqlite {
            let bytes = try Self.storeBytes(harness)
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in the store") }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aTokenRefusedForAnImageIsRenewedOnce(store: HarnessStore) async throws {
        let servers = try Servers(expiring: true)
        defer { servers.stop() }
        let harness = try Self.harness(servers, driver: store)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report)")
        #expect(report.media?.fetched == 2, "\(report.notes)")
        #expect(servers.api.tokenRequests.count == 2, "the pass's token, then one renewal")
        let tokens = servers.api.everyToken
        #expect(servers.imageAuthorizations == ["Bearer \(tokens[0])", "Bearer \(tokens[1])"])
        #expect(servers.elsewhere.requests.map { $0.header("Authorization") } == [nil])
        // The renewed token is kept sealed in _state, as a pass keeps it.
        let state = try await harness.rows("SELECT value FROM _state WHERE key = 'auth.oauth2'")
        let sealed = try #require(JSONFeedTest.texts(state, "value").first)
        #expect(sealed.hasPrefix("v1:"))
        for token in tokens { #expect(!sealed.contains(token)) }
    }

    @Test func anImageRefusedAgainAfterTheRenewalIsANoteNotALoop() async throws {
        let servers = try Servers { _ in .json(#"{"error":"not yours"}"#, status: 401) }
        defer { servers.stop() }
        let harness = try Self.harness(servers)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report)")
        #expect(report.media?.failed == 1)
        #expect(report.notes.contains { $0.contains("a.png") && $0.contains("HTTP 401") }, "\(report.notes)")
        #expect(servers.api.tokenRequests.count == 2)
        #expect(servers.imageAuthorizations.count == 2)
        let texts = try await Self.storedTexts(harness)
        for token in servers.api.everyToken { #expect(!texts.contains(token)) }
    }
}

/// An API key sent in the query: added to the requests for images on the feed's own origin,
/// never to another's, and never kept in the store.
@Suite("json adapter: query keys for mirrored images")
struct JSONMediaQueryKeyTests {
    static let key = "qk-51d0e2b7"

    @Test(arguments: HarnessStore.available)
    func theKeyGoesWithImagesOfTheFeedsOriginOnlyAndIsNeverStored(store: HarnessStore) async throws {
        let image = JSONMediaTests.imageA
        let elsewhere = try LoopbackServer { _ in .data(image, headers: [("Content-Type", "image/png")]) }
        defer { elsewhere.stop() }
        let foreign = elsewhere.url("/b.png")
        let server = try LoopbackServer { request in
            guard request.query("api_key") == Self.key else { return .status(401) }
            let host = "http://\(request.header("Host") ?? "")"
            switch request.path {
            case "/ads":
                return .json(
                    #"[{"id":1,"picture":"\#(host)/a.png"},{"id":2,"picture":"\#(host)/gone.png"},"#
                        + #"{"id":3,"picture":"\#(host)/c.png?size=small"},{"id":4,"picture":"\#(foreign)"}]"#)
            case "/a.png", "/c.png": return .data(image, headers: [("Content-Type", "image/png")])
            default: return .status(404)
            }
        }
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/ads"),
            """
                auth: { type: api_key, query: api_key, value: "\(Self.key)" }
                entity: ad
                key: id
                fields: { id: int, picture: media }
            """, driver: store)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report)")
        #expect(report.media?.fetched == 3, "\(report.notes)")
        #expect(report.media?.failed == 1)
        let images = server.requests.filter { $0.path != "/ads" }
        #expect(images.count == 3)
        #expect(images.allSatisfy { $0.query("api_key") == Self.key })
        #expect(images.first { $0.path == "/c.png" }?.query("size") == "small")
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.allSatisfy { $0.query("api_key") == nil && !$0.target.contains(Self.key) })

        // The store keeps the URLs the rows name; the failure's note hides the key.
        let urls = JSONFeedTest.texts(try await harness.rows("SELECT url FROM _media_urls ORDER BY url"), "url")
        #expect(
            urls.sorted()
                == [server.url("/a.png"), server.url("/c.png?size=small"), server.url("/gone.png"), foreign].sorted())
        let note = try #require(report.notes.first { $0.contains("gone.png") })
        #expect(note.contains("api_key=***"), "\(note)")
        #expect(!report.notes.joined().contains(Self.key))
        let texts = try await JSONMediaOAuth2Tests.storedTexts(harness)
        #expect(!texts.contains(Self.key))
        if store == .sqlite {
            #expect(try JSONMediaOAuth2Tests.storeBytes(harness).range(of: Data(Self.key.utf8)) == nil)
        }
    }
}
