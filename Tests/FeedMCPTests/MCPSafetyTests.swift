import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@testable import FeedMCP

/// What `feedwork mcp` never shows: a credential written in the config, and more than
/// ``FeedTools/maximumAnswerBytes`` of one answer.
@Suite("MCP safety")
struct MCPSafetyTests {
    static let secret = "sekret-123"

    /// A store whose feed `pantry` (a bearer token written in its `auth:`) ran once and
    /// rejected one record.
    static func harness(_ store: HarnessStore) async throws -> FeedHarness {
        let items = #"{"items":[{"id":1,"name":"apple crumble","price":"1.50"},{"id":2,"name":"pear","price":"x"}]}"#
        let yaml = """
            feeds:
              - name: pantry
                adapter: json
                url: items.json
                auth: { type: bearer, token: \(secret) }
                records: $.items
                entity: pantry
                key: id
                fields: { id: int, name: string, price: decimal }
            """
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]), yaml: yaml, files: ["items.json": Data(items.utf8)],
            store: store)
        _ = try await harness.run()
        return harness
    }

    @Test(arguments: HarnessStore.available)
    func aCredentialWrittenInTheConfigIsInNoAnswer(_ store: HarnessStore) async throws {
        let harness = try await Self.harness(store)
        let server = MCPServer(
            config: try harness.config(), registry: AdapterRegistry([JSONAdapter.self]), version: "t")
        // A problem that quotes the credential (as a field's type) quotes `***`.
        let quoting = JSONValue.string(
            "feeds:\n  - name: x\n    adapter: json\n    url: a.json\n    entity: x\n"
                + "    key: id\n    fields: { id: \(Self.secret) }\n"
        ).jsonText
        let calls = [
            ("list_feeds", "{}"), ("feed_runs", #"{"feed":"pantry"}"#), ("feed_rejects", #"{"feed":"pantry"}"#),
            ("query_sql", #"{"sql":"SELECT * FROM _runs"}"#), ("validate_config", #"{"yaml":\#(quoting)}"#),
        ]
        for (name, arguments) in calls {
            let (text, _) = try await MCPServerTests.call(server, name, arguments)
            #expect(!text.contains(Self.secret), "\(name): \(text)")
            if name == "validate_config" { #expect(text.contains("***"), "\(text)") }
        }
        withExtendedLifetime(harness) {}
    }

    @Test func anAnswerLongerThanTheLimitIsCutWithANote() throws {
        let config = try ConfigLoader(registry: AdapterRegistry([]), environment: [:]).load(
            yaml: "feeds: []\n", path: "feeds.yaml", directory: "/nonexistent")
        let tools = FeedTools(config: config, registry: AdapterRegistry([]))
        let answer = tools.answer(String(repeating: "x", count: FeedTools.maximumAnswerBytes + 10))
        #expect(answer.utf8.count < FeedTools.maximumAnswerBytes + 200)
        #expect(answer.hasSuffix("ask for fewer rows]"))
        #expect(answer.contains("[truncated: the answer was \(FeedTools.maximumAnswerBytes + 10) bytes"))
    }
}
