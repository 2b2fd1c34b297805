import FeedKit
import FeedTestSupport
import Testing

@testable import FeedEngine

/// The one feed overview, as `feedwork list` and `feedwork serve` read it from either store.
@Suite("Feed overview")
struct FeedOverviewTests {
    @Test(arguments: HarnessStore.available)
    func listAndServeReadTheSameRunsAndRows(driver: HarnessStore) async throws {
        let harness = try StoreMigrationTests.itemsHarness(driver)
        _ = try await harness.run()
        let config = try harness.config()

        let listed = try #require(try await FeedOverview.load(config: config).first)
        #expect(listed.name == "items" && listed.adapter == "items" && listed.enabled)
        #expect(listed.rows.map { "\($0.entity) \($0.rows)" } == ["item 3"])
        #expect(listed.status == "ok")
        #expect(listed.lastRun != nil && listed.lastRun == listed.last?.finishedAt)

        let served = try await StoreBrowser(config: config).overview(configured: [
            ("items", "items"), ("later", "items"),
        ])
        #expect(served.map(\.name) == ["items", "later"])
        #expect(served[0].rows.map { "\($0.entity) \($0.rows)" } == ["item 3"])
        #expect(served[0].recent.map(\.status) == ["ok"] && served[0].last?.adapter == "items")
        #expect(served[0].lastRun == listed.lastRun && served[0].rejects == 0)
        #expect(served[1].recent.isEmpty && served[1].rows.isEmpty && served[1].adapter == "items")
    }
}
