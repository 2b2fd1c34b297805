import FeedEngine
import FeedKit
import Foundation
import Prometheus
import Synchronization

/// A worker's metrics in Prometheus's text format, kept from its events (``WorkerObserver``).
///
/// | metric | labels | what |
/// |---|---|---|
/// | `feedwork_passes_total` | feed, status | finished passes |
/// | `feedwork_rows_total` | feed, outcome | rows inserted, updated, unchanged, deleted, rejected |
/// | `feedwork_requests_total` | feed | HTTP requests made (cache hits without a request excluded) |
/// | `feedwork_response_bytes_total` | feed | bytes of the responses |
/// | `feedwork_pass_duration_seconds` | feed | histogram of pass durations |
/// | `feedwork_last_success_timestamp_seconds` | feed | end of the latest pass that committed |
/// | `feedwork_schedule_lag_seconds` | | histogram of how late passes started after they were due |
/// | `feedwork_running_passes` | | passes under way |
public final class WorkerMetrics: WorkerObserver {
    public let registry = PrometheusCollectorRegistry()
    private let running: Gauge
    private let lag: ValueHistogram
    /// Why the worker is unwell, if it is.
    private enum Health {
        case well
        /// The schedule board failed; well again once a pass starts.
        case storeFailing(String)
        /// Told to stop: never well again.
        case stopping
    }

    private let health = Mutex(Health.well)

    static let durationBuckets: [Duration] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600].map {
        .milliseconds(Int64($0 * 1000))
    }
    static let lagBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    public init() {
        running = registry.makeGauge(
            descriptor: Self.name("running", "passes", "Passes under way."))
        lag = registry.makeValueHistogram(
            descriptor: Self.name("schedule_lag", "seconds", "How late passes started after they were due."),
            buckets: Self.lagBuckets)
    }

    /// Why the worker is unwell (stopping, or the store failing), or `nil` when it is well.
    public var problem: String? {
        switch health.withLock({ $0 }) {
        case .well: nil
        case .storeFailing(let message): "store: \(message)"
        case .stopping: "stopping"
        }
    }

    /// The metrics as Prometheus's text exposition format.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }

    public func worker(_ event: WorkerEvent) {
        switch event {
        case .passStarted(_, _, let lagSeconds):
            running.increment()
            lag.record(max(0, lagSeconds))
            health.withLock { if case .storeFailing = $0 { $0 = .well } }
        case .passFinished(let report, _, _, _):
            running.decrement()
            record(report)
        case .boardFailed(let message):
            health.withLock { if case .stopping = $0 {} else { $0 = .storeFailing(message) } }
        case .boardRecovered:
            health.withLock { if case .storeFailing = $0 { $0 = .well } }
        case .stopping:
            health.withLock { $0 = .stopping }
        case .started, .claimLost, .reloaded, .reloadRefused, .graceExpired:
            break
        }
    }

    private func record(_ report: FeedReport) {
        let feed = ("feed", report.feed)
        registry.makeCounter(
            descriptor: Self.name("passes", "total", "Finished passes by feed and status."),
            labels: [feed, ("status", report.status.rawValue)]
        ).increment()
        let counts = report.counts
        for (outcome, value) in [
            ("inserted", counts.inserted), ("updated", counts.updated), ("unchanged", counts.unchanged),
            ("deleted", counts.deleted), ("rejected", counts.rejected),
        ] {
            registry.makeCounter(
                descriptor: Self.name("rows", "total", "Rows written by feed and outcome."),
                labels: [feed, ("outcome", outcome)]
            ).increment(by: Int64(value))
        }
        registry.makeCounter(
            descriptor: Self.name("requests", "total", "HTTP requests made by feed."), labels: [feed]
        ).increment(by: Int64(report.requests))
        registry.makeCounter(
            descriptor: Self.name("response_bytes", "total", "Bytes of HTTP responses by feed."), labels: [feed]
        ).increment(by: Int64(report.bytes))
        registry.makeDurationHistogram(
            descriptor: Self.name("pass_duration", "seconds", "Pass durations by feed."), labels: [feed],
            buckets: Self.durationBuckets
        ).record(.milliseconds(report.milliseconds))
        if report.status == .ok || report.status == .okWithRejects || report.status == .stale {
            registry.makeGauge(
                descriptor: Self.name(
                    "last_success", "timestamp_seconds", "When the latest committed pass of the feed ended (Unix time)."
                ),
                labels: [feed]
            ).set(Date().timeIntervalSince1970)
        }
    }

    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "feedwork", metricName: metric, unitName: unit, helpText: help)
    }
}
