import FeedKit
import FeedStore
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

/// `_state` as both drivers keep it (``StoreState``): values by key, and by a key's prefix.
@Suite struct StoreStateTests {
    @Test(arguments: HarnessStore.available)
    func statesByPrefixFindKeysWhosePrefixIsNotASCII(store: HarnessStore) async throws {
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: a, adapter: items, url: items.json }\n",
            files: ["items.json": Data(#"[{"id": "a", "value": 1}]"#.utf8)], store: store)
        let engine = try await Engine.open(try harness.config())
        // `é` as `e` and a combining accent: one Swift character, two Unicode scalars.
        let prefix = "cafe\u{301}."
        try await engine.store.writeSQL { connection in
            try StoreState.set(
                [prefix + "1": "one", prefix + "2": "two", "cafe.3": "other", "caf\u{E9}.4": "precomposed"],
                feed: "a", in: connection)
        }
        #expect(try await engine.store.states(feed: "a", prefix: prefix) == [prefix + "1": "one", prefix + "2": "two"])
        #expect(try await engine.store.states(feed: "a", prefix: "cafe.") == ["cafe.3": "other"])
        try await engine.close()
        withExtendedLifetime(harness) {}
    }
}
