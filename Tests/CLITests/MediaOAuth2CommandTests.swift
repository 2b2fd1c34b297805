import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// An OAuth2 token renewed while a pass mirrors its images, across real `feedwork` processes:
/// the renewal (with its rotated refresh token) is kept in `_state`, so the next process starts
/// from it instead of the refresh token the endpoint already took back.
@Suite("OAuth2 renewed for images, across runs")
struct MediaOAuth2CommandTests {
    static let png = Data(
        [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde])

    /// The server, for its own API handler, and how often it listed the ads.
    final class Ledger: Sendable {
        let server = Mutex<LoopbackOAuth2Server?>(nil)
        let listed = Mutex(0)
    }

    @Test func aTokenRenewedForAnImageIsTheOneTheNextRunStartsFrom() async throws {
        let directory = try FeedworkProcess.makeFolder("media-oauth2")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = Ledger()
        let server = try LoopbackOAuth2Server { request in
            guard request.path == "/ads" else { return .data(Self.png, headers: [("Content-Type", "image/png")]) }
            // The first listing ends the token's life: the image request after it is refused.
            if ledger.listed.withLock({ count in
                count += 1
                return count == 1
            }) {
                ledger.server.withLock { $0 }?.expireAccessTokens()
            }
            return .json(#"[{"id":1,"picture":"http://\#(request.header("Host") ?? "")/img/a.png"}]"#)
        }
        ledger.server.withLock { $0 = server }
        defer { server.stop() }
        let yaml = """
            feeds:
              - name: ads
                adapter: json
                url: \(server.url("/ads"))
                retries: 0
                auth:
                  type: oauth2_refresh_token
                  token_url: \(server.tokenURL)
                  client_id: \(server.settings.clientID)
                  client_secret: ${CLIENT_SECRET}
                  refresh_token: ${REFRESH_TOKEN}
                entity: ad
                key: id
                fields: { id: int, picture: media }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let environment = [
            "CLIENT_SECRET": server.settings.clientSecret, "REFRESH_TOKEN": server.settings.refreshToken,
        ]

        let first = try await FeedworkProcess.run(["run", "--json"], in: directory, environment: environment)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        let feed = (report?["feeds"] as? [[String: Any]])?.first
        #expect((feed?["media"] as? [String: Any])?["fetched"] as? Int == 1, "\(first.stdout)")
        #expect(server.tokenRequests.count == 2, "the pass's token, and its renewal for the image")
        let images = server.apiRequests.filter { $0.path == "/img/a.png" }.map { $0.header("Authorization") }
        let tokens = server.everyToken.filter { $0.hasPrefix("access-") }
        #expect(images == tokens.map { "Bearer \($0)" })

        // The next process reads the renewed token: no token request, and no refresh token the
        // endpoint already took back is ever sent.
        let second = try await FeedworkProcess.run(["run"], in: directory, environment: environment)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(server.refused.isEmpty, "\(server.refused)")
        #expect(server.tokenRequests.count == 2)
        #expect(server.apiRequests.last?.header("Authorization") == "Bearer \(tokens.last ?? "")")
    }
}
