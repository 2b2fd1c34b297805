import FeedEngine
import Foundation
import Synchronization

/// Progress of `feedwork run` on stderr while it goes on: one line per feed under way (responses,
/// records, bytes, time, rate), and a line for each feed as it finishes.
///
/// On a terminal the lines of the feeds under way are redrawn in place; elsewhere (a pipe, a
/// log file) a plain line per feed under way is written every few seconds, so a long run is
/// never silent while a short one (a cron job) writes nothing.
final class ProgressDisplay: Sendable {
    enum Mode: Sendable, Equatable {
        /// Redrawn in place (ANSI: cursor up, erase line) every `interval`.
        case live(interval: Duration)
        /// A plain line per feed under way every `interval`.
        case lines(interval: Duration)
        case off
    }

    let mode: Mode
    let progress: RunProgress
    /// How many live lines are on screen below the finished ones.
    private let drawn = Mutex(0)

    init(mode: Mode, progress: RunProgress) {
        self.mode = mode
        self.progress = progress
    }

    /// Redraws or writes the feeds under way every interval until the task is cancelled.
    func refresh() async {
        let interval: Duration
        switch mode {
        case .live(let every), .lines(let every): interval = every
        case .off: return
        }
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { break }
            render()
        }
    }

    /// A feed finished: on a terminal its line goes above the live ones. Off a terminal the
    /// summary says it, so a run shorter than the interval writes nothing on stderr.
    func finished(_ report: FeedReport) {
        guard case .live = mode else { return }
        drawn.withLock { drawn in
            var text = Self.erase(drawn)
            drawn = 0
            text += ReportPrinter.progressLine(report) + "\n"
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    /// Erases the live lines, leaving the finished ones; called before the summary is printed.
    func clear() {
        drawn.withLock { drawn in
            if drawn > 0 { FileHandle.standardError.write(Data(Self.erase(drawn).utf8)) }
            drawn = 0
        }
    }

    private func render() {
        let now = Date()
        let lines = progress.feeds.map { Self.line(for: $0, now: now) }
        drawn.withLock { drawn in
            var text: String
            switch mode {
            case .live:
                text = Self.erase(drawn) + lines.map { $0 + "\n" }.joined()
                drawn = lines.count
            case .lines:
                text = lines.map { "progress: \($0)\n" }.joined()
            case .off:
                return
            }
            if !text.isEmpty { FileHandle.standardError.write(Data(text.utf8)) }
        }
    }

    /// `slow: 12 responses, 1200 records (570/s), 340.0 KB, 2.1s`, and what the adapter shows
    /// of its progress (`; window 6 of 13, 5 committed, 8 left`).
    static func line(for feed: RunProgress.Feed, now: Date) -> String {
        let seconds = max(0.001, now.timeIntervalSince(feed.startedAt))
        let rate = Int((Double(feed.records) / seconds).rounded())
        return "\(feed.name): \(feed.responses) response(s), \(feed.records) record(s) (\(rate)/s), "
            + "\(ReportPrinter.bytes(feed.bytes)), \(String(format: "%.1f", seconds))s"
            + (feed.stage.map { "; \($0)" } ?? "")
    }

    /// Moves up over `count` lines, erasing each.
    static func erase(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return String(repeating: "\u{1B}[1A\u{1B}[2K", count: count) + "\r"
    }
}
