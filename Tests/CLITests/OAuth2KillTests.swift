import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// `feedwork run` killed (SIGKILL, nothing runs after it) between the token endpoint rotating
/// the refresh token and the pass's commit: the rotated token was committed as it arrived, so
/// the next run authenticates with it (the endpoint refuses the one it replaced).
@Suite("OAuth2: a rotated refresh token survives a killed run")
struct OAuth2KillTests {
    /// Runs the refresh-token feed (its store after `storeLines`), kills the process while the
    /// API holds its first data request, then runs again with the API answering.
    static func killAfterRotationThenRunAgain(storeLines: String = "") async throws {
        let directory = try FeedworkProcess.makeFolder("oauth2-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stalling = Mutex(true)
        let server = try LoopbackOAuth2Server { _ in
            let reply = LoopbackReply.json(OAuth2CommandTests.orders)
            return stalling.withLock { $0 } ? reply.delayed(by: .seconds(30)) : reply
        }
        defer { server.stop() }
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
                records: $.orders
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
        while server.apiRequests.isEmpty && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        killed.send(SIGKILL)
        let first = await killed.finish()
        try #require(!server.apiRequests.isEmpty, "the run never asked for the data: \(first.stdout)\(first.stderr)")
        #expect(first.status != 0)
        #expect(server.tokenRequests.count == 1, "the seed was exchanged, and rotated, before the kill")

        stalling.withLock { $0 = false }
        server.expireAccessTokens()
        let next = try await FeedworkProcess.run(["run"], in: directory, environment: environment)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(server.refused.isEmpty, "the seed, revoked by the rotation, was sent again: \(server.refused)")
        #expect(server.tokenRequests.count == 2)
        #expect(server.refreshUses.count == 2 && server.refreshUses.values.allSatisfy { $0 == 1 })
    }

    /// Runs a two-page feed (its store after `storeLines`) whose second page is first answered
    /// 401, after the first page's rows went to the pass's transaction: the pass renews its token
    /// mid-pass (the endpoint rotates the refresh token) and is killed while the API holds the
    /// second page. The next run must authenticate with the rotated token.
    static func killAfterMidPassRenewalThenRunAgain(storeLines: String = "") async throws {
        let directory = try FeedworkProcess.makeFolder("oauth2-kill-mid-pass")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stalling = Mutex(true)
        let refusedOnce = Mutex(false)
        let server = try LoopbackOAuth2Server { request in
            guard request.query("page") == "2" else {
                return .json(#"{"orders":[{"id":1,"total":"9.50"}],"next":"/orders?page=2"}"#)
            }
            let reply = LoopbackReply.json(#"{"orders":[{"id":2,"total":"12.00"}]}"#)
            if !refusedOnce.withLock({ refused in
                defer { refused = true }; return refused
            }) {
                return .json(#"{"error":"invalid_token"}"#, status: 401, headers: [("WWW-Authenticate", "Bearer")])
            }
            return stalling.withLock { $0 } ? reply.delayed(by: .seconds(30)) : reply
        }
        defer { server.stop() }
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
                pagination: { type: next_url, next_path: next }
                records: $.orders
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
        let secondAsk = { server.apiRequests.filter { $0.query("page") == "2" }.count >= 2 }
        while !secondAsk() && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        killed.send(SIGKILL)
        let first = await killed.finish()
        try #require(secondAsk(), "the run never asked for page 2 again: \(first.stdout)\(first.stderr)")
        #expect(first.status != 0)
        #expect(server.tokenRequests.count == 2, "the seed was exchanged, then the rotated token, before the kill")

        stalling.withLock { $0 = false }
        server.expireAccessTokens()
        let next = try await FeedworkProcess.run(["run"], in: directory, environment: environment)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(server.refused.isEmpty, "a refresh token revoked by a rotation was sent again: \(server.refused)")
        #expect(server.tokenRequests.count == 3)
        #expect(server.refreshUses.count == 3 && server.refreshUses.values.allSatisfy { $0 == 1 })
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
