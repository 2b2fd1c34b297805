import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `schema: { new_columns, type_changes }`: what a pass may change in the store's tables, per
/// feed or in `defaults:`, checked alike on both stores.
@Suite("schema contracts")
struct SchemaContractTests {
    static let body = #"{"items":[{"id":1,"a":"x","b":"y"},{"id":2,"a":"7","b":"z"}]}"#

    /// feeds.yaml with `defaults` (a block's lines, or none), the feed's `schema` line and its fields.
    static func yaml(url: String, defaults: String = "", schema: String = "", fields: String) -> String {
        """
        \(defaults.isEmpty ? "" : "defaults:\n  \(defaults)\n")feeds:
          - name: items
            adapter: json
            url: \(url)
            retries: 0
            records: $.items
            entity: item
            key: id
        \(schema.isEmpty ? "" : "    \(schema)\n")    fields: { \(fields) }
        """
    }

    /// A feed of `id: int, a: string` reading `body` from a loopback server, after its first pass.
    static func firstPass(_ body: String, driver: HarnessStore) async throws -> (FeedHarness, LoopbackServer, String) {
        let server = try LoopbackServer { _ in .json(body) }
        let url = server.url("/items")
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry, yaml: yaml(url: url, fields: "id: int, a: string"), store: driver)
        #expect(try #require(try await harness.run().feeds.first).status == .ok)
        return (harness, server, url)
    }

    @Test(arguments: HarnessStore.available)
    func newColumnsFreezeFailsThePassNamingTheColumnAndTheFeedsOwnRuleWinsOverDefaults(driver: HarnessStore)
        async throws
    {
        let (harness, server, url) = try await Self.firstPass(Self.body, driver: driver)
        defer { server.stop() }

        try harness.setConfig(
            Self.yaml(url: url, schema: "schema: { new_columns: freeze }", fields: "id: int, a: string, b: string"))
        let frozen = try #require(try await harness.run().feeds.first)
        #expect(frozen.status == .failed)
        let error = try #require(frozen.error)
        #expect(error.contains("entity 'item': new column 'b' (text)"), "\(error)")
        #expect(error.contains("new_columns: freeze"), "\(error)")
        #expect(try await harness.schemas()["item"]?.columns.map(\.name) == ["id", "a"])
        #expect(try await harness.rows("SELECT * FROM item WHERE id = 1").first?["b"] == nil, "the table is unchanged")

        // `defaults:` freezes, the feed's own key evolves: the column is added.
        try harness.setConfig(
            Self.yaml(
                url: url, defaults: "schema: { new_columns: freeze }", schema: "schema: { new_columns: evolve }",
                fields: "id: int, a: string, b: string"))
        #expect(try #require(try await harness.run().feeds.first).status == .ok)
        #expect(try await harness.schemas()["item"]?.columns.map(\.name) == ["id", "a", "b"])
    }

    @Test(arguments: HarnessStore.available)
    func typeChangesFreezeInDefaultsFailsThePassNamingBothTypes(driver: HarnessStore) async throws {
        let (harness, server, url) = try await Self.firstPass(#"{"items":[{"id":1,"a":"7"}]}"#, driver: driver)
        defer { server.stop() }

        try harness.setConfig(
            Self.yaml(
                url: url, defaults: "schema: { type_changes: freeze }",
                fields: "id: int, a: { type: int, from_string: true }"))
        let frozen = try #require(try await harness.run().feeds.first)
        #expect(frozen.status == .failed)
        let error = try #require(frozen.error)
        #expect(error.contains("column 'a' is text in the store and integer now"), "\(error)")
        #expect(error.contains("type_changes: freeze"), "\(error)")
        #expect(try await harness.schemas()["item"]?.columns.map(\.type) == [.integer, .text])
        #expect(JSONFeedTest.texts(try await harness.rows("SELECT a FROM item"), "a") == ["7"])
    }

    @Test func anUnknownRuleIsAConfigErrorAtItsLine() throws {
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: Self.yaml(
                url: "items.json", defaults: "schema: { type_changes: discard }",
                schema: "schema: { new_columns: maybe }", fields: "id: int"))
        #expect {
            try harness.config()
        } throws: { error in
            let text = String(describing: error)
            return text.contains("new_columns must be evolve, freeze or discard, not 'maybe'")
                && text.contains("type_changes must be evolve or freeze, not 'discard'")
        }
    }
}
