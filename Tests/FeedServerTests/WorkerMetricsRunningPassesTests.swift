import FeedEngine
import Foundation
import Testing

@testable import FeedServer

/// `feedwork_running_passes`: the passes under way, whatever the order of the worker's events.
@Suite struct WorkerMetricsRunningPassesTests {
    func report(_ feed: String, _ status: FeedReport.Status) -> FeedReport {
        FeedReport(
            feed: feed, adapter: "json", status: status, counts: WriteCounts(), requests: 0, attempts: 0, bytes: 0,
            milliseconds: 0, staleURLs: [], notes: [], outboxDelivered: 0, outboxPending: 0)
    }

    func runningPasses(_ metrics: WorkerMetrics) -> String? {
        String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("feedwork_running_passes ") }.map(String.init)
    }

    @Test func aDependentPassNotRunBecauseItsParentFailedLeavesNoPassRunning() {
        let metrics = WorkerMetrics()
        metrics.worker(.passStarted(feed: "parent", due: Date(), lag: 0))
        metrics.worker(.passFinished(report("parent", .failed), due: Date(), lag: 0, next: Date()))
        metrics.worker(.passFinished(report("child", .skipped), due: Date(), lag: 0, next: Date()))
        #expect(runningPasses(metrics) == "feedwork_running_passes 0")
    }

    @Test func passesUnderWayAreCountedUntilTheyFinish() {
        let metrics = WorkerMetrics()
        metrics.worker(.passStarted(feed: "a", due: Date(), lag: 0))
        metrics.worker(.passStarted(feed: "b", due: Date(), lag: 0))
        metrics.worker(.passFinished(report("a", .ok), due: Date(), lag: 0, next: Date()))
        #expect(runningPasses(metrics) == "feedwork_running_passes 1")
    }
}
