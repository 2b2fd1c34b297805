import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// A worker whose wall clock is stepped while it runs: the schedule is kept on the monotonic
/// clock, so a feed due every second goes on running every second.
@Suite struct WorkerClockTests {
    /// The system's clocks, with a wall clock the test steps.
    final class SteppedClock: WorkerClock {
        private let system = SystemWorkerClock()
        private let offset = Mutex<TimeInterval>(0)

        func step(to seconds: TimeInterval) { offset.withLock { $0 = seconds } }
        func wallNow() -> Date { system.wallNow().addingTimeInterval(offset.withLock { $0 }) }
        func monotonicSeconds() -> Double { system.monotonicSeconds() }
    }

    /// Counts the passes that ended.
    final class Passes: WorkerObserver {
        private let finished = Mutex(0)
        var count: Int { finished.withLock { $0 } }

        func worker(_ event: WorkerEvent) {
            if case .passFinished = event { finished.withLock { $0 += 1 } }
        }

        /// Waits until `count` passes ended, for at most 120 s; whether they did. A schedule
        /// stalled by a step waits an hour or days; a loaded machine running the whole suite
        /// has been seen to take 40 s between two passes of this worker.
        func wait(for count: Int) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(120)
            while self.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return self.count >= count
        }
    }

    /// Each list is the wall clock's offsets in turn, each held while three passes run.
    @Test(arguments: [[-3600.0, 0], [3 * 86_400.0, 0], [-86_400.0]] as [[TimeInterval]])
    func aFeedDueEverySecondKeepsRunningWhenTheWallClockSteps(steps: [TimeInterval]) async throws {
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: f, adapter: items, url: items.json, every: 1s, spread: false }\n",
            files: ["items.json": Data(#"[{"id": "a", "value": 1}]"#.utf8)])
        let engine = try await Engine.open(try harness.config())
        let clock = SteppedClock()
        let passes = Passes()
        var worker = Worker(engine: engine, name: "clock", observer: passes)
        worker.clock = clock
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let running = Task { [worker] in try await worker.run(commands: commands) }
        defer { running.cancel() }

        #expect(try await passes.wait(for: 2), "the feed ran \(passes.count) times before any step")
        for offset in steps {
            clock.step(to: offset)
            let target = passes.count + 3
            #expect(try await passes.wait(for: target), "after the wall clock went to \(offset) s: \(passes.count)")
        }
        control.yield(.stop)
        control.finish()
        try await running.value
        try await engine.close()
    }
}
