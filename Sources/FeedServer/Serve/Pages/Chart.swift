import FeedEngine
import Foundation

/// A chart of a feed's runs as inline SVG, drawn by the server (no script, no external asset),
/// oldest run on the left, one slot per run, in panels stacked one above the other:
///
/// - rows: a bar per run of its new, updated and deleted rows, stacked (`rect.new`,
///   `rect.updated`, `rect.deleted`), their heights proportional to the counts;
/// - duration: a bar per run (`rect.duration`), green for ok, red for a failure;
/// - lag: when the feed has a schedule, a bar per run after the first (`rect.lag`) of how late
///   it started after it was due (the previous run's start plus `every:`, or the cron time that
///   followed it).
///
/// Every shape carries its value (`data-value`) and a `<title>`; every text is escaped.
enum Chart {
    /// The chart's dimensions: the overview's small multiples, or the feed page's larger one.
    struct Size {
        var width: Double
        var panel: Double
        var labelled: Bool

        static let small = Size(width: 160, panel: 16, labelled: false)
        static let large = Size(width: 640, panel: 64, labelled: true)

        /// The space above a panel: its label on the large chart, a gap on the small one.
        var head: Double { labelled ? 16 : 3 }
    }

    /// One panel: its name, the shapes' class names and values per run (`nil`: no shape).
    private struct Panel {
        var label: String
        var unit: String
        var series: [(name: String, colour: String, values: [Int?])]
    }

    static func svg(
        _ newestFirst: [RunRecord], feed: String, schedule: FeedSchedule? = nil, size: Size = .small
    ) -> String {
        let runs = Array(newestFirst.reversed())
        guard !runs.isEmpty else { return "" }
        var panels = [
            Panel(
                label: "rows: new, updated, deleted", unit: "rows",
                series: [
                    ("new", "#6a6", runs.map(\.inserted)), ("updated", "#da3", runs.map(\.updated)),
                    ("deleted", "#c55", runs.map(\.deleted)),
                ]),
            Panel(
                label: "duration", unit: "ms",
                series: [("duration", "#88a", runs.map { $0.durationMilliseconds ?? 0 })]),
        ]
        if let schedule {
            panels.append(
                Panel(label: "lag behind the schedule", unit: "ms", series: [("lag", "#a6a", lags(runs, schedule))]))
        }
        let slot = size.width / Double(max(runs.count, StoreBrowser.recentRuns))
        var parts: [String] = []
        var top = 0.0
        for panel in panels {
            top += size.head
            // The tallest stack is the panel's full height.
            let most = runs.indices.map { index in panel.series.reduce(0) { $0 + ($1.values[index] ?? 0) } }.max() ?? 0
            let scale = size.panel / Double(max(most, 1))
            if size.labelled {
                parts.append(
                    "<text x=\"0\" y=\"\(format(top - 4))\" font-size=\"11\" fill=\"#333\">"
                        + escape("\(panel.label) (highest \(most) \(panel.unit))") + "</text>")
            }
            for (index, run) in runs.enumerated() {
                var base = top + size.panel
                for series in panel.series {
                    guard let value = series.values[index] else { continue }
                    let height = Double(value) * scale
                    base -= height
                    let colour = series.name == "duration" && !run.status.hasPrefix("ok") ? "#c88" : series.colour
                    parts.append(
                        "<rect class=\"\(series.name)\" data-run=\"\(run.run)\" data-value=\"\(value)\""
                            + " x=\"\(format(Double(index) * slot))\" y=\"\(format(base))\""
                            + " width=\"\(format(max(slot - 1, 1)))\" height=\"\(format(height))\" fill=\"\(colour)\">"
                            + "<title>"
                            + escape(
                                "run \(run.run) (\(run.status)): \(value) \(series.name == "lag" || series.name == "duration" ? panel.unit : series.name)"
                            ) + "</title></rect>")
                }
            }
            top += size.panel
        }
        let height = format(top + 1)
        let width = format(size.width)
        return
            "<svg class=\"chart\(size.labelled ? " chart-large" : "")\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
            + " viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"" + escape("runs of \(feed)") + "\">"
            + parts.joined() + "</svg>"
    }

    /// How late each run started after it was due, in milliseconds (0 when on time or early), `nil`
    /// for the first run, whose due time is not known.
    static func lags(_ runs: [RunRecord], _ schedule: FeedSchedule) -> [Int?] {
        let starts = runs.map { RunTime.date($0.startedAt) }
        return starts.indices.map { index in
            guard index > 0, let previous = starts[index - 1], let start = starts[index] else { return nil }
            let due = schedule.firstDue(lastStarted: previous, now: .distantPast)
            return max(0, Int((start.timeIntervalSince(due) * 1000).rounded()))
        }
    }

    private static func escape(_ text: String) -> String { TableBody.escape(text) }

    /// A coordinate with one decimal, rounded.
    static func format(_ value: Double) -> String { String((value * 10).rounded() / 10) }
}

/// The times `_runs` holds (ISO 8601 UTC, with or without milliseconds) as dates.
enum RunTime {
    static func date(_ text: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
