import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// Renders a ``RunReport`` as a summary table, a progress line or JSON.
enum ReportPrinter {
    static func table(_ report: RunReport, storePath: String) -> String {
        var table = TextTable(
            [
                "feed", "status", "run", "new", "updated", "unchanged", "deleted", "rejected", "requests", "bytes",
                "time",
            ],
            numeric: [2, 3, 4, 5, 6, 7, 8, 9, 10])
        for feed in report.feeds {
            table.add([
                feed.feed, feed.status.rawValue, feed.run.map(String.init) ?? "-", String(feed.counts.inserted),
                String(feed.counts.updated), String(feed.counts.unchanged), String(feed.counts.deleted),
                String(feed.counts.rejected), String(feed.requests), bytes(feed.bytes), milliseconds(feed.milliseconds),
            ])
        }
        var lines = [table.rendered]
        for feed in report.feeds {
            if let error = feed.error { lines.append("\(feed.feed): error: \(error)") }
            if let stale = feed.staleSummary { lines.append("\(feed.feed): \(stale)") }
            for note in feed.notes { lines.append("\(feed.feed): \(note)") }
            if feed.outboxPending > 0 {
                lines.append("\(feed.feed): \(feed.outboxPending) outbox event(s) not delivered; retried next run")
            }
        }
        let failed = report.feeds.filter { $0.status == .failed }.count
        lines.append(
            "\(report.feeds.count) feed(s), \(failed) failed; store: \(storePath)")
        return lines.joined(separator: "\n")
    }

    static func progressLine(_ feed: FeedReport) -> String {
        let counts = feed.counts
        let summary =
            feed.status == .failed
            ? "failed: \(feed.error ?? "")"
            : "\(feed.status.rawValue): \(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged, \(counts.rejected) rejected"
        return "[\(feed.feed)] \(summary) (\(milliseconds(feed.milliseconds)))"
    }

    /// What an interrupt left: the feeds rolled back, those whose pass under way rolled back
    /// after earlier ones committed (a backfill's windows), those committed before it, those
    /// not started (of `selected`, in config order).
    static func interruptSummary(_ report: RunReport, selected: [String]) -> [String] {
        let ran = Set(report.feeds.map(\.feed))
        let interrupted = report.feeds.filter { $0.status == .interrupted }
        let rolledBack = interrupted.filter { $0.earlierCommits == 0 }.map(\.feed)
        let partly = interrupted.filter { $0.earlierCommits > 0 }.map { "\($0.feed) (\($0.earlierCommits) pass(es))" }
        let committed = report.feeds.filter { ![.interrupted, .failed, .skipped].contains($0.status) }.map(\.feed)
        let notStarted = selected.filter { !ran.contains($0) }
        var lines: [String] = []
        if !rolledBack.isEmpty {
            lines.append(
                "interrupted: rolled back, their rows as before this run: \(rolledBack.joined(separator: ", "))")
        }
        if !partly.isEmpty {
            lines.append(
                "interrupted: the pass under way rolled back, those before it committed (the next run goes on after them): \(partly.joined(separator: ", "))"
            )
        }
        if !committed.isEmpty {
            lines.append("interrupted: committed before the interrupt: \(committed.joined(separator: ", "))")
        }
        if !notStarted.isEmpty { lines.append("interrupted: not started: \(notStarted.joined(separator: ", "))") }
        return lines
    }

    static func bytes(_ count: Int) -> String {
        if count >= 1 << 20 { return String(format: "%.1f MB", Double(count) / Double(1 << 20)) }
        if count >= 1 << 10 { return String(format: "%.1f KB", Double(count) / Double(1 << 10)) }
        return "\(count) B"
    }

    static func milliseconds(_ value: Int) -> String {
        value >= 1000 ? String(format: "%.2fs", Double(value) / 1000) : "\(value)ms"
    }
}
