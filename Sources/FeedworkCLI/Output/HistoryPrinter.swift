import FeedEngine
import FeedKit

/// Renders the store's history (`feedwork runs`, `feedwork rejects`) as text tables.
enum HistoryPrinter {
    /// The longest raw record shown in the rejects table; `--json` shows it whole.
    static let rawWidth = 60

    static func runs(_ runs: [RunRecord]) -> String {
        guard !runs.isEmpty else { return "no runs" }
        var table = TextTable(
            ["run", "feed", "status", "started", "duration", "new", "updated", "unchanged", "deleted", "rejected"],
            numeric: [0, 4, 5, 6, 7, 8, 9])
        for run in runs {
            table.add([
                String(run.run), run.feed, run.status, run.startedAt,
                run.durationMilliseconds.map(ReportPrinter.milliseconds) ?? "-", String(run.inserted),
                String(run.updated), String(run.unchanged), String(run.deleted), String(run.rejected),
            ])
        }
        let errors = runs.compactMap { run in run.error.map { "run \(run.run) (\(run.feed)): error: \($0)" } }
        return ([table.rendered] + errors).joined(separator: "\n")
    }

    static func rejects(_ rejects: [RejectRecord]) -> String {
        guard !rejects.isEmpty else { return "no rejects" }
        var table = TextTable(
            ["run", "feed", "entity", "reason", "path", "url", "page", "raw"], numeric: [0, 6])
        for reject in rejects {
            table.add([
                String(reject.run), reject.feed, reject.entity, reject.reason, reject.path, reject.url ?? "-",
                reject.page.map(String.init) ?? "-", shortened(reject.raw),
            ])
        }
        return table.rendered
    }

    /// `text` on one line, cut to ``rawWidth`` characters with `...`.
    static func shortened(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\n", with: " ")
        return line.count <= rawWidth ? line : String(line.prefix(rawWidth - 3)) + "..."
    }
}
