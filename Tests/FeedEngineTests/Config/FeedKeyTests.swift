import FeedEngine
import FeedKit
import Foundation
import Testing

/// A misspelt required key is reported as the unknown key it is, with a "did you mean"; YAML
/// merge keys are applied, or refused at their value when they name no mapping.
@Suite("Config: misspelt feed keys and merge keys")
struct FeedKeyTests {
    let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: [:])

    func problems(_ yaml: String) -> [String] { loader.problems(yaml) }

    @Test func aMisspeltAdapterKeyIsReportedWithDidYouMean() {
        #expect(
            problems("feeds:\n  - name: one\n    adapterr: items\n    url: a.json\n") == [
                "feeds.yaml:3:5: error: unknown key 'adapterr' in feeds[0]; did you mean 'adapter'?"
            ])
    }

    @Test func aMergeKeyAppliesTheAnchoredFeedsKeys() throws {
        let config = try loader.load(
            yaml: """
                feeds:
                  - &first
                    name: one
                    adapter: items
                    url: a.json
                    timeout: 5s
                  - <<: *first
                    name: two
                """, path: "feeds.yaml", directory: "/tmp")
        #expect(config.feeds.map(\.name) == ["one", "two"])
        #expect(config.feeds.map(\.adapterName) == ["items", "items"])
        #expect(config.feeds[1].policy.timeout == .seconds(5))
        #expect((config.feeds[1].adapter as? ItemsAdapter)?.options.url == "a.json")
    }

    @Test func aMergeKeyOfAListOfMappingsLetsTheFirstWin() throws {
        let config = try loader.load(
            yaml: """
                feeds:
                  - <<: [{ url: first.json, timeout: 2s }, { url: second.json, adapter: items }]
                    name: one
                """, path: "feeds.yaml", directory: "/tmp")
        #expect((config.feeds[0].adapter as? ItemsAdapter)?.options.url == "first.json")
        #expect(config.feeds[0].policy.timeout == .seconds(2))
    }

    @Test func aMergeKeyNamingAScalarIsRefusedAtItsValue() {
        #expect(
            problems("feeds:\n  - <<: 5\n    name: one\n    adapter: items\n    url: a.json\n") == [
                "feeds.yaml:2:9: error: a merge key '<<' takes a mapping or a list of mappings (such as *base), not a scalar"
            ])
    }
}
