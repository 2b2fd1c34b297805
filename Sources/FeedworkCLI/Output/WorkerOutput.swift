import FeedEngine
import FeedKit
import FeedServer
import Foundation
import Logging

/// What `feedwork worker` prints: one line per finished pass on stdout (a JSON object per line
/// with `--json`), the rest through the log; every event also goes to the metrics.
struct WorkerOutput: WorkerObserver {
    var json: Bool
    var metrics: WorkerMetrics
    var logger: Logger

    /// A finished pass as a JSON line: the run report's fields, when the pass was due and how
    /// late it started, and when the feed is next due (empty when no longer scheduled).
    struct PassLine: Encodable {
        var event = "pass"
        var dueAt: String
        var lagSeconds: Double
        var finishedAt: String
        var nextRunAt: String
        var report: FeedReport

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(event, forKey: .event)
            try container.encode(dueAt, forKey: .dueAt)
            try container.encode(lagSeconds, forKey: .lagSeconds)
            try container.encode(finishedAt, forKey: .finishedAt)
            try container.encode(nextRunAt, forKey: .nextRunAt)
        }

        enum CodingKeys: String, CodingKey { case event, dueAt, lagSeconds, finishedAt, nextRunAt }
    }

    func worker(_ event: WorkerEvent) {
        metrics.worker(event)
        switch event {
        case .started(let worker, let feeds):
            logger.notice("worker \(worker) started with \(feeds) scheduled feed(s)")
        case .passStarted(let feed, _, let lag):
            logger.info("\(feed): pass started \(String(format: "%.3f", lag))s after it was due")
        case .passFinished(let report, let due, let lag, let next):
            let now = Timestamp.string(Date())
            let nextText = next == .distantFuture ? "" : Timestamp.string(next)
            if json {
                let line = PassLine(
                    dueAt: Timestamp.string(due), lagSeconds: (lag * 1000).rounded() / 1000, finishedAt: now,
                    nextRunAt: nextText, report: report)
                Console.print(JSONText.line(line))
            } else {
                var line = "\(now) \(ReportPrinter.progressLine(report))"
                if !report.notes.isEmpty { line += "; notes: " + report.notes.joined(separator: "; ") }
                if !nextText.isEmpty { line += "; next \(nextText)" }
                Console.print(line)
            }
        case .claimLost(let feed):
            logger.warning("\(feed): another worker took the feed over while its pass ran (the lease ran out)")
        case .boardFailed(let message):
            logger.error("schedule: \(message); trying again")
        case .boardRecovered:
            logger.notice("schedule: the store answers again")
        case .reloaded(let feeds):
            logger.notice("config reloaded: \(feeds) scheduled feed(s)")
        case .reloadRefused(let message):
            logger.error("config not reloaded: \(message); the old one stays in use")
        case .stopping(let running):
            logger.notice("stopping: \(running) pass(es) under way may finish; no new pass starts")
        case .graceExpired(let feeds):
            logger.warning("grace time over: rolling back \(feeds.joined(separator: ", "))")
        }
    }
}
