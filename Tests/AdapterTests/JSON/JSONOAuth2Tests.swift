import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// `oauth2_client_credentials` and `oauth2_refresh_token` auth against a real token endpoint
/// and API on loopback (``LoopbackOAuth2Server``).
@Suite("json adapter: OAuth2")
struct JSONOAuth2Tests {
    static let fields = """
            records: $.items
            entity: item
            key: id
            fields: { id: int, name: string }
        """

    static func server(_ settings: LoopbackOAuth2Server.Settings = .init()) throws -> LoopbackOAuth2Server {
        try LoopbackOAuth2Server(settings) { _ in .json(#"{"items":\#(JSONFeedTest.items(1..<4))}"#) }
    }

    static func clientCredentials(_ server: LoopbackOAuth2Server, extra: String = "") -> String {
        """
            auth:
              type: oauth2_client_credentials
              token_url: \(server.tokenURL)
              client_id: \(server.settings.clientID)
              client_secret: "${CLIENT_SECRET}"
              scope: "items:read"
              audience: https://api.example
        \(extra)
        """ + Self.fields
    }

    static func refreshToken(_ server: LoopbackOAuth2Server) -> String {
        """
            auth:
              type: oauth2_refresh_token
              token_url: \(server.tokenURL)
              client_id: \(server.settings.clientID)
              client_secret: "${CLIENT_SECRET}"
              refresh_token: "${REFRESH_TOKEN}"

        """ + Self.fields
    }

    static func environment(_ server: LoopbackOAuth2Server) -> [String: String] {
        ["CLIENT_SECRET": server.settings.clientSecret, "REFRESH_TOKEN": server.settings.refreshToken]
    }

    @Test(arguments: HarnessStore.available)
    func clientCredentialsTokenIsObtainedOnceAndSentAsBearer(_ store: HarnessStore) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.clientCredentials(server), environment: Self.environment(server),
            driver: store)
        let first = try await harness.run()
        #expect(first.feeds.first?.status == .ok, "\(first.feeds.first?.error ?? "")")
        let second = try await harness.run()
        #expect(second.feeds.first?.status == .ok, "\(second.feeds.first?.error ?? "")")

        #expect(server.tokenRequests.count == 1, "the token is reused until it expires")
        let form = try #require(server.tokenRequests.first).bodyText
        for part in [
            "grant_type=client_credentials", "client_id=feedwork-client", "client_secret=client-secret-3f9a81",
            "scope=items%3Aread", "audience=https%3A%2F%2Fapi.example",
        ] {
            #expect(form.contains(part), "\(form)")
        }
        let access = try #require(server.everyToken.first)
        #expect(server.apiRequests.map { $0.header("authorization") } == ["Bearer \(access)", "Bearer \(access)"])
        #expect(try await harness.count("item") == 3)

        // The token is kept in _state, sealed: no byte of it (or of the secret) is stored.
        let state = try await harness.rows("SELECT key, value FROM _state WHERE key = 'auth.oauth2'")
        let sealed = try #require(JSONFeedTest.texts(state, "value").first)
        #expect(sealed.hasPrefix("v1:"))
        #expect(!sealed.contains(access) && !sealed.contains(server.settings.clientSecret))
    }

    @Test func basicClientAuthenticationAndExtraParameters() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            Self.clientCredentials(server, extra: "      client_auth: basic\n      params: { resource: crm }\n"),
            environment: Self.environment(server))
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        let request = try #require(server.tokenRequests.first)
        let basic = Data("feedwork-client:client-secret-3f9a81".utf8).base64EncodedString()
        #expect(request.header("authorization") == "Basic \(basic)")
        #expect(!request.bodyText.contains("client_secret"))
        #expect(request.bodyText.contains("resource=crm"))
    }

    @Test(arguments: HarnessStore.available)
    func a401RenewsTheTokenOnceAndSendsTheRequestAgain(_ store: HarnessStore) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.clientCredentials(server), environment: Self.environment(server),
            driver: store)
        _ = try await harness.run()
        // The server ends the token's life before the client expected: the API answers 401.
        server.expireAccessTokens()
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(server.tokenRequests.count == 2)
        let statuses = server.apiRequests.map { $0.header("authorization") ?? "" }
        #expect(statuses.count == 3, "first run, the refused request, the request sent again")
        let tokens = server.everyToken
        #expect(statuses == ["Bearer \(tokens[0])", "Bearer \(tokens[0])", "Bearer \(tokens[1])"])
    }

    @Test func aRequestRefusedAgainAfterRenewalFailsThePass() async throws {
        let server = try LoopbackOAuth2Server { _ in .json(#"{"error":"forbidden scope"}"#, status: 401) }
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.clientCredentials(server), environment: Self.environment(server))
        let report = try await harness.run()
        let error = try #require(report.feeds.first?.error)
        #expect(error.contains("HTTP 401"), "\(error)")
        #expect(server.tokenRequests.count == 2, "one renewal, not a loop")
        #expect(server.apiRequests.count == 2)
        for token in server.everyToken { #expect(!error.contains(token)) }
    }

    @Test(arguments: HarnessStore.available)
    func aRotatedRefreshTokenIsUsedNextAndEachIsSentOnce(_ store: HarnessStore) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.refreshToken(server), environment: Self.environment(server),
            driver: store)
        for _ in 0..<3 {
            let report = try await harness.run()
            #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
            server.expireAccessTokens()
        }
        #expect(server.refused.isEmpty, "\(server.refused)")
        #expect(server.tokenRequests.count == 3)
        let uses = server.refreshUses
        #expect(uses[server.settings.refreshToken] == 1, "the configured token only seeds the chain")
        #expect(uses.count == 3 && uses.values.allSatisfy { $0 == 1 }, "\(uses)")
        #expect(server.tokenRequests.allSatisfy { $0.bodyText.contains("grant_type=refresh_token") })
    }

    /// Tokens that live 2 s, over several of their lifetimes: each is renewed by the client's
    /// own clock (a tenth of its lifetime before it expires) rather than on a 401, with the
    /// rotated refresh token, each sent once. The API accepts a token for two minutes past its
    /// `expires_in`, as servers allow for clocks that differ, so that a request a loaded machine
    /// holds up between its token's last look and its arrival (seen: 21 s) is still answered:
    /// a client renewing only on a 401 would not reach four tokens before the deadline.
    @Test func tokensAreRenewedBeforeTheyExpireOverSeveralLifetimes() async throws {
        var settings = LoopbackOAuth2Server.Settings()
        settings.lifetime = 2
        settings.grace = 120
        let server = try Self.server(settings)
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.refreshToken(server), environment: Self.environment(server))
        var passes = 0
        // Three renewals take about 6 s on a quiet machine.
        let deadline = Date().addingTimeInterval(240)
        while server.tokenRequests.count < 4, Date() < deadline {
            let report = try await harness.run()
            #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
            passes += 1
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(server.tokenRequests.count >= 4, "several lifetimes passed")
        #expect(server.apiRequests.count == passes, "no request was refused and sent again")
        #expect(server.refused.isEmpty, "\(server.refused)")
        #expect(server.refreshUses.values.allSatisfy { $0 == 1 }, "\(server.refreshUses)")
    }

    @Test func anOfflinePassNeedsNoToken() async throws {
        let server = try Self.server()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.clientCredentials(server), environment: Self.environment(server))
        let first = try await harness.run()
        #expect(first.feeds.first?.status == .ok, "\(first.feeds.first?.error ?? "")")
        server.stop()
        // Other credentials (another scope), for which no token is held or kept, and the
        // endpoint gone: the cached response serves anyway.
        try harness.setConfig(
            """
            feeds:
              - name: items
                adapter: json
                url: \(server.url("/items"))
                retries: 0
            \(Self.clientCredentials(server).replacingOccurrences(of: "items:read", with: "items:write"))
            """)
        let report = try await harness.run(offline: true)
        #expect(report.feeds.first?.status == .stale, "\(report.feeds.first?.error ?? "")")
        #expect(server.tokenRequests.count == 1)
    }

    @Test func aTokenEndpointThatGivesNoTokenFailsWithoutShowingItsAnswer() async throws {
        let server = try LoopbackServer { request in
            request.path == "/token"
                ? .json(#"{"token":"not-the-right-member-9a8b7c"}"#) : .json(#"{"items":[]}"#)
        }
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                auth:
                  type: oauth2_client_credentials
                  token_url: \(server.url("/token"))
                  client_id: me
                  client_secret: "${CLIENT_SECRET}"

            """ + Self.fields, environment: ["CLIENT_SECRET": "client-secret-3f9a81"])
        let report = try await harness.run()
        let error = try #require(report.feeds.first?.error)
        #expect(error.contains("without an access_token (members: token)"), "\(error)")
        #expect(!error.contains("not-the-right-member"))
    }

    @Test func badOAuth2BlocksAreRefusedWithTheirPlace() throws {
        for (block, message) in [
            ("{ type: oauth2_client_credentials, token_url: /token, client_id: a, client_secret: b }", "http://"),
            ("{ type: oauth2_client_credentials, token_url: \"http://x/t\", client_id: a }", "client_secret"),
            ("{ type: oauth2_refresh_token, token_url: \"http://x/t\" }", "refresh_token"),
            (
                "{ type: oauth2_client_credentials, token_url: \"http://x/t\", client_id: a, client_secret: b, client_auth: jwt }",
                "body or basic"
            ),
        ] {
            let harness = try JSONFeedTest.harness(
                url: "http://127.0.0.1:9/items", "    auth: \(block)\n" + Self.fields)
            #expect(throws: (any Error).self) { try harness.config() }
            do {
                _ = try harness.config()
            } catch {
                #expect("\(error)".contains(message), "\(error)")
                #expect("\(error)".contains("feeds.yaml:"), "\(error)")
            }
        }
    }
}
