import FeedEngine

/// A small inline SVG of a feed's recent runs, oldest on the left: a bar per run, its height
/// the duration, its colour the status, and a line of the rows the runs delivered.
enum Chart {
    static let width = 160
    static let height = 36

    static func svg(_ runs: [RunRecord]) -> String {
        let runs = Array(runs.reversed())
        guard !runs.isEmpty else { return "" }
        // One slot per run the overview keeps, so that one run is a thin bar, not the whole width.
        let step = Double(width) / Double(max(runs.count, StoreBrowser.recentRuns))
        let longest = Double(runs.compactMap(\.durationMilliseconds).max() ?? 1)
        let rows = runs.map { Double($0.inserted + $0.updated + $0.unchanged) }
        let most = max(rows.max() ?? 1, 1)
        var parts: [String] = []
        for (index, run) in runs.enumerated() {
            let duration = Double(run.durationMilliseconds ?? 0)
            let barHeight = max(1, duration / max(longest, 1) * Double(height - 2))
            let colour = run.status.hasPrefix("ok") ? "#8c8" : run.status == "running" ? "#88c" : "#c88"
            parts.append(
                "<rect x=\"\(format(Double(index) * step))\" y=\"\(format(Double(height) - barHeight))\" width=\"\(format(max(step - 1, 1)))\" height=\"\(format(barHeight))\" fill=\"\(colour)\"><title>run \(run.run): \(run.durationMilliseconds ?? 0) ms</title></rect>"
            )
        }
        let points = rows.enumerated().map { index, count in
            "\(format(Double(index) * step + step / 2)),\(format(Double(height) - 1 - count / most * Double(height - 4)))"
        }
        parts.append(
            "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#235\" stroke-width=\"1\"/>")
        return
            "<svg class=\"chart\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"recent runs\">"
            + parts.joined() + "</svg>"
    }

    private static func format(_ value: Double) -> String { String(Double(Int(value * 10)) / 10) }
}
