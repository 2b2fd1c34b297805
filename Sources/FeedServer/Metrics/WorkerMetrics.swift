import FeedEngine
import FeedKit
import Foundation
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
///
/// A feed's series appear with its first pass in this worker.
public final class WorkerMetrics: WorkerObserver {
    /// Why the worker is unwell, if it is.
    private enum Health {
        case well
        /// The schedule board failed; well again once a pass starts.
        case storeFailing(String)
        /// Told to stop: never well again.
        case stopping
    }

    /// The series of one feed.
    private struct FeedSeries {
        var passes: [String: Int64] = [:]
        var rows = WriteCounts()
        var requests: Int64 = 0
        var bytes: Int64 = 0
        var duration = MetricsHistogram(bounds: WorkerMetrics.durationBuckets)
        /// When its latest committed pass ended (Unix time), if one did.
        var lastSuccess: Double?

        mutating func record(_ report: FeedReport) {
            passes[report.status.rawValue, default: 0] += 1
            rows = rows + report.counts
            requests += Int64(report.requests)
            bytes += Int64(report.bytes)
            duration.record(Double(report.milliseconds) / 1000)
            if report.status == .ok || report.status == .okWithRejects || report.status == .stale {
                lastSuccess = Date().timeIntervalSince1970
            }
        }
    }

    private struct State {
        /// The feeds whose passes are under way: a pass the worker skips (a parent failed)
        /// finishes without having started, and must not count down.
        var running: Set<String> = []
        var lag = MetricsHistogram(bounds: WorkerMetrics.lagBuckets)
        var feeds: [String: FeedSeries] = [:]
        var health = Health.well
    }

    private let state = Mutex(State())

    static let durationBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600]
    static let lagBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    public init() {}

    /// Why the worker is unwell (stopping, or the store failing), or `nil` when it is well.
    public var problem: String? {
        switch state.withLock({ $0.health }) {
        case .well: nil
        case .storeFailing(let message): "store: \(message)"
        case .stopping: "stopping"
        }
    }

    public func worker(_ event: WorkerEvent) {
        state.withLock { state in
            switch event {
            case .passStarted(let feed, _, let lagSeconds):
                state.running.insert(feed)
                state.lag.record(max(0, lagSeconds))
                if case .storeFailing = state.health { state.health = .well }
            case .passFinished(let report, _, _, _):
                state.running.remove(report.feed)
                state.feeds[report.feed, default: FeedSeries()].record(report)
            case .boardFailed(let message):
                if case .stopping = state.health {} else { state.health = .storeFailing(message) }
            case .boardRecovered:
                if case .storeFailing = state.health { state.health = .well }
            case .stopping:
                state.health = .stopping
            case .started, .claimLost, .reloaded, .reloadRefused, .graceExpired:
                break
            }
        }
    }

    /// The metrics as Prometheus's text exposition format, feeds by name.
    public func exposition() -> [UInt8] {
        let state = state.withLock { $0 }
        let feeds = state.feeds.sorted { $0.key < $1.key }
        var out = MetricsExposition()
        out.family("feedwork_running_passes", "gauge", help: "Passes under way.")
        out.sample("feedwork_running_passes", [], "\(state.running.count)")
        out.family("feedwork_schedule_lag_seconds", "histogram", help: "How late passes started after they were due.")
        out.histogram("feedwork_schedule_lag_seconds", [], state.lag)
        out.family("feedwork_passes_total", "counter", help: "Finished passes by feed and status.")
        for (feed, series) in feeds {
            for (status, count) in series.passes.sorted(by: { $0.key < $1.key }) {
                out.sample("feedwork_passes_total", [("feed", feed), ("status", status)], "\(count)")
            }
        }
        out.family("feedwork_rows_total", "counter", help: "Rows written by feed and outcome.")
        for (feed, series) in feeds {
            let rows = series.rows
            for (outcome, count) in [
                ("inserted", rows.inserted), ("updated", rows.updated), ("unchanged", rows.unchanged),
                ("deleted", rows.deleted), ("rejected", rows.rejected),
            ] {
                out.sample("feedwork_rows_total", [("feed", feed), ("outcome", outcome)], "\(count)")
            }
        }
        out.family("feedwork_requests_total", "counter", help: "HTTP requests made by feed.")
        for (feed, series) in feeds { out.sample("feedwork_requests_total", [("feed", feed)], "\(series.requests)") }
        out.family("feedwork_response_bytes_total", "counter", help: "Bytes of HTTP responses by feed.")
        for (feed, series) in feeds { out.sample("feedwork_response_bytes_total", [("feed", feed)], "\(series.bytes)") }
        out.family("feedwork_pass_duration_seconds", "histogram", help: "Pass durations by feed.")
        for (feed, series) in feeds {
            out.histogram("feedwork_pass_duration_seconds", [("feed", feed)], series.duration)
        }
        out.family(
            "feedwork_last_success_timestamp_seconds", "gauge",
            help: "When the latest committed pass of the feed ended (Unix time).")
        for (feed, series) in feeds {
            if let last = series.lastSuccess {
                out.sample("feedwork_last_success_timestamp_seconds", [("feed", feed)], "\(last)")
            }
        }
        return Array(out.text.utf8)
    }
}
