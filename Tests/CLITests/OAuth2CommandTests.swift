import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// OAuth2 across real `feedwork` processes: the token a run obtained is sealed in `_state` and
/// reused by the next run, a rotated refresh token is the one the next run sends, and no
/// secret or token reaches anything Feedwork writes.
@Suite("OAuth2 across runs")
struct OAuth2CommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("oauth2")
    }

    static let orders = #"{"orders":[{"id":1,"total":"9.50"},{"id":2,"total":"12.00"}]}"#

    func writeConfig(_ server: LoopbackOAuth2Server, type: String) throws {
        let yaml = """
            feeds:
              - name: orders
                adapter: json
                url: \(server.url("/orders"))
                retries: 0
                fixtures: fixtures/orders
                auth:
                  type: \(type)
                  token_url: \(server.tokenURL)
                  client_id: \(server.settings.clientID)
                  client_secret: ${CLIENT_SECRET}
            \(type == "oauth2_refresh_token" ? "      refresh_token: ${REFRESH_TOKEN}\n" : "")\
                records: $.orders
                entity: order
                key: id
                fields: { id: int, total: string }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    func environment(_ server: LoopbackOAuth2Server) -> [String: String] {
        ["CLIENT_SECRET": server.settings.clientSecret, "REFRESH_TOKEN": server.settings.refreshToken]
    }

    @Test func theNextRunReusesTheTokenTheFirstObtained() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackOAuth2Server { _ in .json(Self.orders) }
        defer { server.stop() }
        try writeConfig(server, type: "oauth2_client_credentials")
        for _ in 0..<2 {
            let run = try await FeedworkProcess.run(["run"], in: directory, environment: environment(server))
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        }
        #expect(server.tokenRequests.count == 1, "the second process read the token from _state")
        #expect(server.apiRequests.count == 2)
    }

    @Test func theNextRunSendsTheRotatedRefreshToken() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackOAuth2Server { _ in .json(Self.orders) }
        defer { server.stop() }
        try writeConfig(server, type: "oauth2_refresh_token")
        for _ in 0..<3 {
            let run = try await FeedworkProcess.run(["run"], in: directory, environment: environment(server))
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            server.expireAccessTokens()
        }
        // Were the configured token sent again, the server would refuse it: it was used once.
        #expect(server.refused.isEmpty, "\(server.refused)")
        #expect(server.tokenRequests.count == 3)
        #expect(server.refreshUses.count == 3 && server.refreshUses.values.allSatisfy { $0 == 1 })
        #expect(server.refreshUses[server.settings.refreshToken] == 1)
        // A full refresh ignores cursors and summaries, not the credentials.
        let full = try await FeedworkProcess.run(
            ["run", "--full-refresh"], in: directory, environment: environment(server))
        #expect(full.status == 0, "\(full.stdout)\(full.stderr)")
        #expect(server.refused.isEmpty, "\(server.refused)")
    }

    /// A pass that fails after the token endpoint rotated the refresh token keeps the rotated
    /// one: the endpoint refuses the token it replaced, so the next run must send the new one.
    @Test func aRotatedRefreshTokenSurvivesAFailedPass() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = Mutex(true)
        let server = try LoopbackOAuth2Server { _ in
            failing.withLock { $0 } ? .json(#"{"error":"down for maintenance"}"#, status: 503) : .json(Self.orders)
        }
        defer { server.stop() }
        try writeConfig(server, type: "oauth2_refresh_token")
        let failed = try await FeedworkProcess.run(["run"], in: directory, environment: environment(server))
        #expect(failed.status != 0, "the API failed the pass: \(failed.stdout)\(failed.stderr)")
        #expect(server.tokenRequests.count == 1, "the seed was exchanged (and rotated) before the failure")
        failing.withLock { $0 = false }
        server.expireAccessTokens()
        let next = try await FeedworkProcess.run(["run"], in: directory, environment: environment(server))
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(server.refused.isEmpty, "the seed, revoked by the rotation, was sent again: \(server.refused)")
        #expect(server.tokenRequests.count == 2)
        #expect(server.refreshUses.count == 2 && server.refreshUses.values.allSatisfy { $0 == 1 })
    }

    /// Every store table (and the WAL), every log line at debug level, what `list` and `export`
    /// show, the cache's decompressed bodies and the fixtures `record` writes are searched for
    /// the client secret, the configured refresh token and every token the endpoint issued.
    @Test func noSecretOrTokenIsInAnythingFeedworkWrites() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackOAuth2Server(.init()) { request in
            // An API that echoes the request's bearer token, as some debugging endpoints do.
            let token = request.header("authorization") ?? ""
            return .json(
                #"{"orders":[{"id":1,"total":"9.50","seen":"\#(token)"}],"about":"\#(String(repeating: "x", count: 400))"}"#
            )
        }
        defer { server.stop() }
        try writeConfig(server, type: "oauth2_refresh_token")
        var outputs: [String] = []
        for arguments in [["run", "--log-level", "debug"], ["run", "--log-level", "debug", "--json"]] {
            let run = try await FeedworkProcess.run(arguments, in: directory, environment: environment(server))
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            outputs += [run.stdout, run.stderr]
            server.expireAccessTokens()
        }
        // `record` runs on a store of its own, which has no rotated refresh token: it records the
        // feed with client credentials.
        try writeConfig(server, type: "oauth2_client_credentials")
        let recorded = try await FeedworkProcess.run(
            ["record", "orders", "--log-level", "debug"], in: directory, environment: environment(server))
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        outputs += [recorded.stdout, recorded.stderr]
        for arguments in [["list"], ["export", "--all", "--output-dir", "out", "--include-meta"], ["history"]] {
            let result = try await FeedworkProcess.run(
                arguments, in: directory, environment: environment(server))
            outputs += [result.stdout, result.stderr]
        }
        // The recording replays with its placeholder token, offline and without the secrets.
        server.stop()
        let replayed = try await FeedworkProcess.run(["test", "--feed", "orders"], in: directory)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        outputs += [replayed.stdout, replayed.stderr]

        let secrets = [server.settings.clientSecret, server.settings.refreshToken] + server.everyToken
        #expect(server.everyToken.count >= 4, "tokens were issued and rotated")
        for output in outputs {
            for secret in secrets { #expect(!output.contains(secret), "\(secret) in \(output)") }
        }
        let files = try SecretSweepTests.allFiles(in: directory)
        #expect(files.contains { $0.hasSuffix("responses.json") }, "\(files)")
        for file in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(file)") }
        }
        let cached = try await StoredCache.decompressedEntries(
            storePath: directory.appendingPathComponent("feeds.sqlite").path)
        #expect(!cached.isEmpty)
        for entry in cached {
            for secret in secrets { #expect(!entry.contains(secret), "\(secret) in a cached body") }
        }
    }
}
