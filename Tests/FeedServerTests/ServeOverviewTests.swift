import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import Hummingbird
import JSONFeed
import Testing

/// What the overview and the feed page tell beyond counts: a run's notes, and the feeds of the
/// config that never ran.
@Suite struct ServeOverviewTests {
    typealias JSON = [String: Any]

    /// A json feed whose one page repeats a key, so its run carries a note on the duplicate.
    static func harnessWithANote(_ store: HarnessStore) async throws -> FeedHarness {
        let yaml = """
            feeds:
              - { name: dups, adapter: json, url: items.json, records: items, entity: item, key: id,
                  fields: { id: int, name: string } }
            """
        let page = #"{"items": [{"id": 1, "name": "a"}, {"id": 1, "name": "b"}, {"id": 2, "name": "c"}]}"#
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]), yaml: yaml, files: ["items.json": Data(page.utf8)],
            store: store)
        _ = try await harness.run()
        return harness
    }

    @Test(arguments: HarnessStore.available)
    func aRunsNotesAreServedWithTheRun(store: HarnessStore) async throws {
        let harness = try await Self.harnessWithANote(store)
        try await ServedStore.serve(harness) { client in
            let answer = try ServedStore.json(try await client.execute(uri: "/api/feeds/dups/runs", method: .get))
            let runs = try #require((answer as? JSON)?["runs"] as? [JSON])
            let notes = try #require(runs.first?["notes"] as? [String])
            #expect(notes == ["1 duplicate item key(s) in this pass ('1'); the last one wins"])
            let page = ServedStore.text(try await client.execute(uri: "/feeds/dups", method: .get))
            #expect(page.contains("1 duplicate item key(s) in this pass (&#39;1&#39;); the last one wins"))
        }
    }

    @Test func theOverviewShowsTheLastRunsNotes() async throws {
        let harness = try await Self.harnessWithANote(.sqlite)
        try await ServedStore.serve(harness) { client in
            let page = ServedStore.text(try await client.execute(uri: "/", method: .get))
            #expect(page.contains("<div class=\"run-note\">1 duplicate item key(s)"))
        }
    }

    @Test func aFeedOfTheConfigThatNeverRanIsListedAsNeverRun() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        let settings = ServeSettings(
            address: ListenAddress(host: "127.0.0.1", port: 0), token: nil,
            browser: try StoreBrowser(config: try harness.config()), pricing: nil,
            configuredFeeds: [("ads", "classified"), ("later", "json")])
        try await ServedStore.serve(settings) { client in
            let feeds = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/feeds", method: .get)) as? [JSON])
            #expect(feeds.map { $0["feed"] as? String } == ["ads", "later"])
            #expect(feeds[1]["adapter"] as? String == "json")
            #expect((feeds[1]["recent"] as? [Any])?.isEmpty == true)
            let page = ServedStore.text(try await client.execute(uri: "/", method: .get))
            #expect(page.contains("<tr class=\"feed\" data-feed=\"later\">"))
            #expect(page.contains(">never run</span>"))
        }
    }
}
