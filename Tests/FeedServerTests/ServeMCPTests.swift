import FeedEngine
import FeedKit
import FeedMCP
import FeedServer
import FeedTestSupport
import Foundation
import Testing

/// `POST /mcp`: `feedwork mcp`'s server in `feedwork serve`, behind its token and bind rules.
@Suite("Serve MCP")
struct ServeMCPTests {
    static let token = "a-token-of-sixteen-or-more"
    static let count =
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query_sql","arguments":{"sql":"SELECT count(*) FROM classified"}}}"#

    static func settings(
        _ harness: FeedHarness, host: String = "127.0.0.1", token: String? = nil, exposed: Bool = false
    )
        throws -> ServeSettings
    {
        let config = try harness.config()
        var settings = ServeSettings(
            address: ListenAddress(host: host, port: 0), token: token, browser: try StoreBrowser(config: config),
            pricing: nil)
        settings.mcp = MCPServer(config: config, registry: ServedStore.registry, version: "test")
        settings.mcpWhenExposed = exposed
        return settings
    }

    @Test(arguments: HarnessStore.available)
    func aToolCallIsAnsweredAsJSON(_ store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let response = try await client.execute(uri: "/mcp", method: .post, body: Self.count)
            #expect(response.status == .ok)
            #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
            let answer = try JSONParser.parse(ServedStore.text(response))
            let text = try #require(answer["result"]?["content"]?[0]?["text"]?.stringValue)
            #expect(try JSONParser.parse(text)["rows"]?[0]?[0]?.int64Value ?? 0 >= 300)
            let notification = try await client.execute(
                uri: "/mcp", method: .post, body: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            #expect(notification.status == .accepted)
            #expect(try await client.execute(uri: "/mcp", method: .get).status == .methodNotAllowed)
            #expect(try await client.execute(uri: "/api/sql", method: .post).status == .methodNotAllowed)
        }
    }

    @Test func withATokenMCPNeedsIt() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(try Self.settings(harness, token: Self.token)) { client in
            let refused = try await client.execute(uri: "/mcp", method: .post, body: Self.count)
            #expect(refused.status == .unauthorized)
            let answered = try await client.execute(
                uri: "/mcp", method: .post, headers: ["Authorization": "Bearer \(Self.token)"], body: Self.count)
            #expect(answered.status == .ok)
        }
    }

    @Test func aWebPageOfAnotherOriginIsRefused() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let refused = try await client.execute(
                uri: "/mcp", method: .post, headers: ["Origin": "http://rebound.example:8080"], body: Self.count)
            #expect(refused.status == .forbidden)
            let own = try await client.execute(
                uri: "/mcp", method: .post, headers: ["Origin": "http://127.0.0.1:8080"], body: Self.count)
            #expect(own.status == .ok)
        }
    }

    @Test func beyondLoopbackMCPIsOffWithoutTheFlag() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        let headers = ["Authorization": "Bearer \(Self.token)"]
        try await ServedStore.serve(try Self.settings(harness, host: "0.0.0.0", token: Self.token)) { client in
            let response = try await client.execute(uri: "/mcp", method: .post, headers: headers, body: Self.count)
            #expect(response.status == .forbidden)
            #expect(ServedStore.text(response).contains("--mcp"))
        }
        try await ServedStore.serve(try Self.settings(harness, host: "0.0.0.0", token: Self.token, exposed: true)) {
            client in
            let response = try await client.execute(uri: "/mcp", method: .post, headers: headers, body: Self.count)
            #expect(response.status == .ok)
        }
    }
}
