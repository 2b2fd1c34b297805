import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// The record page shows a JSON value as the feed wrote it: a decimal's trailing zero, a large
/// integer's digits and the members' order.
@Suite struct ServeRecordPageTests {
    @Test func aJSONValueShowsItsNumbersAndMembersAsWritten() async throws {
        let yaml = """
            feeds:
              - { name: f, adapter: json, url: items.json, records: items, entity: item, key: id,
                  fields: { id: int, meta: json } }
            """
        let page = #"{"items": [{"id": 1, "meta": {"z": 12.50, "a": 12345678901234567890}}]}"#
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]), yaml: yaml, files: ["items.json": Data(page.utf8)])
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let html = ServedStore.text(try await client.execute(uri: "/entities/item/records/f/1", method: .get))
            #expect(html.contains("{\n  &quot;z&quot;: 12.50,\n  &quot;a&quot;: 12345678901234567890\n}"), "\(html)")
        }
    }
}
