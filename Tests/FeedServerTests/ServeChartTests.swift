import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import Testing

/// The charts of runs: server-drawn SVG whose shapes follow the stored runs.
@Suite struct ServeChartTests {
    typealias JSON = [String: Any]

    /// A bar of a chart: its class, run, value and height.
    struct Bar: Equatable {
        var kind: String
        var run: Int
        var value: Int
        var height: Double
    }

    /// The bars of the first `<svg class="chart...">` after `marker` in `page`.
    static func bars(_ page: String, after marker: String) throws -> [Bar] {
        let start = try #require(page.range(of: marker)?.upperBound)
        let svgStart = try #require(page.range(of: "<svg class=\"chart", range: start..<page.endIndex))
        let svgEnd = try #require(page.range(of: "</svg>", range: svgStart.upperBound..<page.endIndex))
        let svg = page[svgStart.lowerBound..<svgEnd.upperBound]
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("href"))
        let pattern =
            /<rect class="(\w+)" data-run="(\d+)" data-value="(\d+)" x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)"/
        return svg.matches(of: pattern).compactMap { match in
            guard let run = Int(match.2), let value = Int(match.3), let height = Double(match.4) else { return nil }
            return Bar(kind: String(match.1), run: run, value: value, height: height)
        }
    }

    /// Checks that each bar of `kinds` is as tall as its value over the panel's highest stack.
    static func expectProportional(_ bars: [Bar], kinds: [String], panel: Double) {
        let shown = bars.filter { kinds.contains($0.kind) }
        var stacks: [Int: Int] = [:]
        for bar in shown { stacks[bar.run, default: 0] += bar.value }
        let most = Double(max(stacks.values.max() ?? 0, 1))
        for bar in shown {
            #expect(abs(bar.height - Double(bar.value) / most * panel) < 0.06, "\(bar)")
        }
    }

    static func runs(_ client: ServedClient) async throws -> [JSON] {
        let answer = try ServedStore.json(try await client.execute(uri: "/api/feeds/ads/runs", method: .get))
        return try #require((answer as? JSON)?["runs"] as? [JSON])
    }

    @Test(arguments: HarnessStore.available)
    func theFeedPagesChartHasABarPerRunAsHighAsItsValue(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        _ = try await harness.run()
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let runs = try await Self.runs(client)
            #expect(runs.count == 3)
            for (uri, marker, panel) in [("/feeds/ads", "id=\"runs-chart\"", 64.0), ("/", "data-feed=\"ads\"", 16.0)] {
                let page = ServedStore.text(try await client.execute(uri: uri, method: .get))
                let bars = try Self.bars(page, after: marker)
                for (kind, field) in [
                    ("new", "inserted"), ("updated", "updated"), ("deleted", "deleted"), ("duration", "duration_ms"),
                ] {
                    let shown = bars.filter { $0.kind == kind }
                    #expect(shown.count == runs.count, "\(uri) \(kind)")
                    for run in runs {
                        let bar = shown.first { $0.run == run["run"] as? Int }
                        #expect(bar?.value == (run[field] as? Int ?? 0), "\(uri) \(kind) \(run)")
                    }
                }
                #expect(bars.filter { $0.kind == "lag" }.isEmpty)
                Self.expectProportional(bars, kinds: ["new", "updated", "deleted"], panel: panel)
                Self.expectProportional(bars, kinds: ["duration"], panel: panel)
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aScheduledFeedsChartShowsHowLateEachRunStarted(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        _ = try await harness.run()
        let every = FeedSchedule(timing: .every(FeedDuration(milliseconds: 1)))
        let settings = ServeSettings(
            address: ListenAddress(host: "127.0.0.1", port: 0), token: nil,
            browser: try StoreBrowser(config: try harness.config()), pricing: nil, schedules: ["ads": every])
        try await ServedStore.serve(settings) { client in
            let runs = try await Self.runs(client).reversed().map { $0 }
            let page = ServedStore.text(try await client.execute(uri: "/feeds/ads", method: .get))
            let lags = try Self.bars(page, after: "id=\"runs-chart\"").filter { $0.kind == "lag" }
            // The first run's due time is not known: a bar for each run after it.
            #expect(lags.map(\.run) == runs.dropFirst().compactMap { $0["run"] as? Int })
            let starts = try runs.map { run in
                try #require(ISO8601DateFormatter.withMilliseconds.date(from: run["started_at"] as? String ?? ""))
            }
            for (index, lag) in lags.enumerated() {
                let late = starts[index + 1].timeIntervalSince(starts[index]) * 1000 - 1
                #expect(abs(lag.value - max(0, Int(late.rounded()))) <= 1, "\(lag)")
                #expect(lag.value > 0, "a run cannot start within 1 ms of the one before")
            }
            Self.expectProportional(lags, kinds: ["lag"], panel: 64)
        }
    }
}

extension ISO8601DateFormatter {
    /// `2026-03-01T10:00:00.123Z`, as `_runs` holds its times.
    static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
