import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// `feedwork run` killed (SIGKILL, nothing runs after it) between the token endpoint rotating
/// the refresh token and the pass's commit: the rotated token was committed as it arrived, so
/// the next run authenticates with it (the endpoint refuses the one it replaced).
@Suite("OAuth2: a rotated refresh token survives a killed run")
struct OAuth2KillTests {
    /// Runs the refresh-token orders feed of `server` (its store after `storeLines`, then
    /// `pagination` when given) and kills the process once `killable` holds (60 s at most), the
    /// token endpoint having been asked `tokensBeforeKill` times. Then lets the API answer
    /// (`answer`), expires the access tokens and runs again: the next run must authenticate with
    /// the last rotated refresh token, each refresh token presented once.
    static func killThenRunAgain(
        _ server: LoopbackOAuth2Server, storeLines: String, pagination: String?, tokensBeforeKill: Int,
        killable: () -> Bool, answer: () -> Void
    ) async throws {
        let directory = try FeedworkProcess.makeFolder("oauth2-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let yaml = """
            \(storeLines)feeds:
              - name: orders
                adapter: json
                url: \(server.url("/orders"))
                retries: 0
                auth:
                  type: oauth2_refresh_token
                  token_url: \(server.tokenURL)
                  client_id: \(server.settings.clientID)
                  client_secret: ${CLIENT_SECRET}
                  refresh_token: ${REFRESH_TOKEN}
            \(pagination.map { "    pagination: \($0)\n" } ?? "")    records: $.orders
                entity: order
                key: id
                fields: { id: int, total: string }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let environment = [
            "CLIENT_SECRET": server.settings.clientSecret, "REFRESH_TOKEN": server.settings.refreshToken,
        ]

        let killed = try FeedworkProcess.startCollecting(["run"], in: directory, environment: environment)
        let deadline = Date().addingTimeInterval(60)
        while !killable() && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        killed.send(SIGKILL)
        let first = await killed.finish()
        try #require(killable(), "the run never got to the moment of the kill: \(first.stdout)\(first.stderr)")
        #expect(first.status != 0)
        #expect(server.tokenRequests.count == tokensBeforeKill, "the tokens exchanged, and rotated, before the kill")

        answer()
        server.expireAccessTokens()
        let next = try await FeedworkProcess.run(["run"], in: directory, environment: environment)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(server.refused.isEmpty, "a refresh token revoked by a rotation was sent again: \(server.refused)")
        #expect(server.tokenRequests.count == tokensBeforeKill + 1)
        #expect(
            server.refreshUses.count == tokensBeforeKill + 1 && server.refreshUses.values.allSatisfy { $0 == 1 })
    }

    /// The feed's one page is held while the token endpoint has rotated the seed: killed between
    /// the token response and the pass's commit.
    static func killAfterRotationThenRunAgain(storeLines: String = "") async throws {
        let stalling = Mutex(true)
        let server = try LoopbackOAuth2Server { _ in
            let reply = LoopbackReply.json(OAuth2CommandTests.orders)
            return stalling.withLock { $0 } ? reply.delayed(by: .seconds(30)) : reply
        }
        defer { server.stop() }
        try await killThenRunAgain(
            server, storeLines: storeLines, pagination: nil, tokensBeforeKill: 1,
            killable: { !server.apiRequests.isEmpty }, answer: { stalling.withLock { $0 = false } })
    }

    /// A two-page feed whose second page is first answered 401, after the first page's rows went
    /// to the pass's transaction: the pass renews its token mid-pass (the endpoint rotates the
    /// refresh token) and is killed while the API holds the second page.
    static func killAfterMidPassRenewalThenRunAgain(storeLines: String = "") async throws {
        let stalling = Mutex(true)
        let refusedOnce = Mutex(false)
        let server = try LoopbackOAuth2Server { request in
            guard request.query("page") == "2" else {
                return .json(#"{"orders":[{"id":1,"total":"9.50"}],"next":"/orders?page=2"}"#)
            }
            let reply = LoopbackReply.json(#"{"orders":[{"id":2,"total":"12.00"}]}"#)
            if !refusedOnce.withLock({ refused in
                defer { refused = true }
                return refused
            }) {
                return .json(#"{"error":"invalid_token"}"#, status: 401, headers: [("WWW-Authenticate", "Bearer")])
            }
            return stalling.withLock { $0 } ? reply.delayed(by: .seconds(30)) : reply
        }
        defer { server.stop() }
        try await killThenRunAgain(
            server, storeLines: storeLines, pagination: "{ type: next_url, next_path: next }", tokensBeforeKill: 2,
            killable: { server.apiRequests.filter { $0.query("page") == "2" }.count >= 2 },
            answer: { stalling.withLock { $0 = false } })
    }

    @Test func aTokenRenewedMidPassOnSQLite() async throws {
        try await Self.killAfterMidPassRenewalThenRunAgain()
    }

    @Test func aTokenRenewedMidPassOnPostgreSQL() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        try await Self.killAfterMidPassRenewalThenRunAgain(storeLines: "store: \(url)\nschema: \(schema)\n")
    }

    @Test func onSQLite() async throws {
        try await Self.killAfterRotationThenRunAgain()
    }

    @Test func onPostgreSQL() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        try await Self.killAfterRotationThenRunAgain(storeLines: "store: \(url)\nschema: \(schema)\n")
    }
}
