import FeedEngine
import FeedKit
import Foundation
import Testing

/// `max_reject_ratio`: a number from 0 to 1 in `defaults:` or on a feed, 0.5 when unset.
@Suite("Config: max_reject_ratio")
struct MaxRejectRatioConfigTests {
    let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: [:])

    @Test func isOneHalfWhenUnsetTakenFromTheDefaultsAndOverriddenPerFeed() throws {
        let config = try loader.load(
            yaml: """
                defaults: { max_reject_ratio: 0.2 }
                feeds:
                  - { name: one, adapter: items, url: a.json }
                  - { name: two, adapter: items, url: b.json, max_reject_ratio: 1 }
                """, path: "feeds.yaml", directory: "/tmp")
        #expect(config.feeds.map(\.maxRejectRatio) == [0.2, 1])
        let plain = try loader.load(
            yaml: "feeds:\n  - { name: one, adapter: items, url: a.json }\n", path: "feeds.yaml", directory: "/tmp")
        #expect(plain.feeds.first?.maxRejectRatio == 0.5)
    }

    @Test func aValueOutsideZeroToOneOrNotANumberIsAnErrorAtItsLineAndColumn() {
        let found = loader.problems(
            """
            defaults: { max_reject_ratio: 1.5 }
            feeds:
              - { name: one, adapter: items, url: a.json, max_reject_ratio: half }
              - { name: two, adapter: items, url: b.json, max_reject_ratio: -0.1 }
            """)
        #expect(
            found == [
                "feeds.yaml:1:31: error: max_reject_ratio must be a number between 0 and 1, not '1.5'",
                "feeds.yaml:3:65: error: max_reject_ratio must be a number between 0 and 1, not 'half'",
                "feeds.yaml:4:65: error: max_reject_ratio must be a number between 0 and 1, not '-0.1'",
            ], "\(found)")
    }
}
