import ClassifiedFeed
import FeedEngine
import FeedKit
import FeedMCP
import FeedTestSupport
import Foundation
import Testing

/// The JSON-RPC layer of `feedwork mcp` and its tools over a real store: the classified
/// adapter's fixtures (categories and 300-odd ads) run once into it.
@Suite("MCP server")
struct MCPServerTests {
    static let registry = AdapterRegistry([ClassifiedAdapter.self])

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Adapters/Classified/Fixtures")
    }

    /// A server over a store whose feed `ads` ran once.
    static func server(_ store: HarnessStore) async throws -> (MCPServer, FeedHarness) {
        let yaml = """
            feeds:
              - name: ads
                adapter: classified
                categories_url: \(fixtures.appendingPathComponent("categories.json").path)
                listing_url: \(fixtures.appendingPathComponent("listing.json").path)
                mirror_media: false
            """
        let harness = try FeedHarness(registry: registry, yaml: yaml, store: store)
        _ = try await harness.run()
        return (MCPServer(config: try harness.config(), registry: registry, version: "test"), harness)
    }

    /// A server over a config whose store does not exist: enough for the protocol's messages.
    static func storeless() throws -> MCPServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-\(UUID().uuidString)").path
        let config = try ConfigLoader(registry: registry, environment: [:]).load(
            yaml: "store: feeds.sqlite\nfeeds: []\n", path: "feeds.yaml", directory: folder)
        return MCPServer(config: config, registry: registry, version: "test")
    }

    /// The answer to `line`, parsed.
    static func answer(_ server: MCPServer, _ line: String) async throws -> JSONValue {
        let text = try #require(await server.answer(line))
        #expect(!text.contains("\n"), "one message per line")
        return try JSONParser.parse(text)
    }

    /// The result of the tool `name` with `arguments` (JSON text): its text and `isError`.
    static func call(_ server: MCPServer, _ name: String, _ arguments: String = "{}") async throws -> (String, Bool) {
        let answer = try await answer(
            server,
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"\#(name)","arguments":\#(arguments)}}"#)
        let result = try #require(answer["result"])
        let text = try #require(result["content"]?[0]?["text"]?.stringValue)
        return (text, result["isError"]?.boolValue ?? false)
    }

    @Test func aLineThatIsNotJSONIsAParseErrorWithANullID() async throws {
        let answer = try await Self.answer(try Self.storeless(), #"{"jsonrpc":"2.0","id":1,"method":"#)
        #expect(answer["error"]?["code"]?.int64Value == -32700)
        #expect(answer["id"] == .null)
    }

    @Test func anUnknownMethodIsMethodNotFoundForItsID() async throws {
        let answer = try await Self.answer(try Self.storeless(), #"{"jsonrpc":"2.0","id":"a-1","method":"nope/nope"}"#)
        #expect(answer["error"]?["code"]?.int64Value == -32601)
        #expect(answer["id"]?.stringValue == "a-1")
    }

    @Test func aNotificationGetsNoAnswer() async throws {
        let server = try Self.storeless()
        #expect(await server.answer(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
    }

    @Test func aBatchIsAnInvalidRequest() async throws {
        let answer = try await Self.answer(try Self.storeless(), #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)
        #expect(answer["error"]?["code"]?.int64Value == -32600)
    }

    @Test func initializeAnswersTheClientsVersionWithToolsAndResources() async throws {
        let answer = try await Self.answer(
            try Self.storeless(),
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        )
        let result = try #require(answer["result"])
        #expect(result["protocolVersion"]?.stringValue == "2025-03-26")
        #expect(result["capabilities"]?["tools"] != nil)
        #expect(result["capabilities"]?["resources"] != nil)
        #expect(result["serverInfo"]?["name"]?.stringValue == "feedwork")
    }

    @Test func aMissingRequiredArgumentIsInvalidParams() async throws {
        let answer = try await Self.answer(
            try Self.storeless(),
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"query_sql","arguments":{}}}"#)
        #expect(answer["error"]?["code"]?.int64Value == -32602)
        #expect(answer["error"]?["message"]?.stringValue?.contains("'sql'") == true)
    }

    @Test func anUnknownToolIsInvalidParams() async throws {
        let answer = try await Self.answer(
            try Self.storeless(), #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"drop_all"}}"#)
        #expect(answer["error"]?["code"]?.int64Value == -32602)
    }

    @Test func aToolThatFailsAnswersIsErrorWithItsMessage() async throws {
        let (text, isError) = try await Self.call(try Self.storeless(), "list_entities")
        #expect(isError)
        #expect(text.contains("no store here"))
    }

    @Test func validateConfigGivesEachProblemWithItsLineAndColumn() async throws {
        let yaml = #""feeds:\n  - name: a\n    adapter: nosuch\n""#
        let (text, isError) = try await Self.call(try Self.storeless(), "validate_config", #"{"yaml":\#(yaml)}"#)
        #expect(!isError)
        let answer = try JSONParser.parse(text)
        #expect(answer["valid"]?.boolValue == false)
        #expect(answer["problems"]?[0]?["line"]?.int64Value == 3)
        #expect(answer["problems"]?[0]?["column"]?.int64Value == 14)
    }

    @Test(arguments: HarnessStore.available)
    func querySQLCountsTheStoresRows(_ store: HarnessStore) async throws {
        let (server, harness) = try await Self.server(store)
        defer { withExtendedLifetime(harness) {} }
        let (text, isError) = try await Self.call(
            server, "query_sql", #"{"sql":"SELECT count(*) AS n FROM classified"}"#)
        #expect(!isError, "\(text)")
        let answer = try JSONParser.parse(text)
        let count = try #require(answer["rows"]?[0]?[0]?.int64Value)
        #expect(count >= 300)
        let (described, _) = try await Self.call(server, "describe_entity", #"{"entity":"classified"}"#)
        #expect(try JSONParser.parse(described)["rows"]?.int64Value == count)
    }

    @Test(arguments: HarnessStore.available)
    func aWriteThroughQuerySQLIsRefusedAndTheStoreKeepsItsRows(_ store: HarnessStore) async throws {
        let (server, harness) = try await Self.server(store)
        defer { withExtendedLifetime(harness) {} }
        let count = #"{"sql":"SELECT count(*) AS n FROM classified"}"#
        let before = try await Self.call(server, "query_sql", count).0
        for statement in ["DELETE FROM classified", "DROP TABLE classified", "SELECT 1; DELETE FROM classified"] {
            let (text, isError) = try await Self.call(server, "query_sql", #"{"sql":"\#(statement)"}"#)
            #expect(isError, "\(statement): \(text)")
        }
        #expect(try await Self.call(server, "query_sql", count).0 == before)
        #expect(try JSONParser.parse(before)["rows"]?[0]?[0]?.int64Value ?? 0 >= 300)
    }

    @Test(arguments: HarnessStore.available)
    func describeEntityNamesItsViewAndRetiredColumns(_ store: HarnessStore) async throws {
        let (server, harness) = try await Self.server(store)
        defer { withExtendedLifetime(harness) {} }
        let (text, isError) = try await Self.call(server, "describe_entity", #"{"entity":"classified"}"#)
        #expect(!isError, "\(text)")
        let answer = try JSONParser.parse(text)
        #expect(answer["view"]?.stringValue == "classified_view")
        #expect(answer["retired"]?.arrayValue?.isEmpty == true, "\(text)")
    }

    @Test func theDocsPagesOnWritingFeedsAreResourcesWithTheirFilesText() async throws {
        let server = try Self.storeless()
        let listed = try await Self.answer(server, #"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#)
        let uris = (listed["result"]?["resources"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue }
        #expect(uris.contains("feedwork://schema"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        #expect(uris.contains("feedwork://docs/json/pagination.md"), "\(uris)")
        #expect(uris.contains("feedwork://docs/json/api-shapes.md"), "\(uris)")
        let paths = uris.filter { $0.hasPrefix("feedwork://docs/") }.map { String($0.dropFirst("feedwork://".count)) }
        for path in paths {
            let read = try await Self.answer(
                server, #"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"feedwork://\#(path)"}}"#)
            let text = try #require(read["result"]?["contents"]?[0]?["text"]?.stringValue)
            let file = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            // scripts/embed-docs.py writes the pages into DocsPages.swift; run it after editing one.
            #expect(text == file.trimmingCharacters(in: .newlines), "\(path) differs from its embedded text")
        }
    }
}
