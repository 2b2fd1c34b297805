import FeedKit
import FeedStore
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

/// A worker started after downtime finds feeds that came due while no worker ran: they are due
/// at their next times, spread over their interval, not all at once.
@Suite struct WorkerRestartSpreadTests {
    @Test(arguments: HarnessStore.available)
    func feedsLeftOverdueByDowntimeAreDueAtTheirNextTimes(store: HarnessStore) async throws {
        let names = (1...20).map { "f\($0)" }
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: tick, adapter: items, url: items.json, every: 1s }\n"
                + names.map { "  - { name: \($0), adapter: items, url: items.json, every: 1h }\n" }.joined(),
            files: ["items.json": Data(#"[{"id": "a", "value": 1}]"#.utf8)], store: store)
        let engine = try await Engine.open(try harness.config())
        // The board as workers stopped two hours ago left it: every hourly feed due back then.
        let stopped = Date().addingTimeInterval(-7200)
        try await engine.store.plan(
            names.map { PlannedFeed(feed: $0, schedule: "every 1h", due: stopped) },
            overdueBefore: Date(timeIntervalSince1970: 0))
        let starts = WorkerClaimAheadTests.Starts()
        let worker = Worker(engine: engine, name: "restarted", observer: starts)
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let running = Task { [worker] in try await worker.run(commands: commands) }
        defer { running.cancel() }
        // A claim takes the most overdue feeds first: once `tick` ran twice, any feed still due
        // two hours ago would have started.
        #expect(try await WorkerClaimAheadTests.wait { starts.ended("tick") >= 2 })
        let late = names.filter { starts.started($0).contains { $0 > 60 } }
        #expect(late.isEmpty, "started as due two hours ago: \(late)")
        control.yield(.stop)
        control.finish()
        try await running.value
        try await engine.close()
    }
}
