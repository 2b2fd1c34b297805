import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Each run records the adapter and the module it came from in `_runs`, on both stores, so that
/// a `feedwork` built without that adapter can name what it lacks.
@Suite("_runs: the adapter's module")
struct RunAdapterOriginTests {
    @Test(arguments: HarnessStore.available)
    func aRunRecordsItsAdapterAndTheModuleItCameFrom(driver: HarnessStore) async throws {
        let harness = try JSONRejectRatioTests.harness(driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        let rows = try await harness.rows("SELECT adapter, adapter_module FROM _runs")
        #expect(
            rows.map { [JSONRejectRatioTests.text($0["adapter"]), JSONRejectRatioTests.text($0["adapter_module"])] }
                == [["json", "JSONFeed"]])
    }
}
