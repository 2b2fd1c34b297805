import FeedKit
import FeedStore
import FeedTestSupport
import Foundation
import Synchronization
import Testing

@testable import FeedEngine

/// Workers sharing a PostgreSQL store keep the board's times on the server's clock
/// (``Store/clock()``): a worker whose machine's clock is minutes off neither takes a
/// feed whose lease another worker still holds nor waits minutes past a lease that ran out.
@Suite("Worker: a machine's clock minutes off")
struct WorkerSkewTests {
    /// The feeds whose passes started, in order.
    final class Starts: WorkerObserver {
        private let feeds = Mutex<[String]>([])
        var all: [String] { feeds.withLock { $0 } }

        func worker(_ event: WorkerEvent) {
            if case .passStarted(let feed, _, _) = event { feeds.withLock { $0.append(feed) } }
        }

        /// Waits until `feed` started `count` passes, for at most 60 s; whether it did.
        func wait(for feed: String, count: Int) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(60)
            func started() -> Int { all.filter { $0 == feed }.count }
            while started() < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return started() >= count
        }
    }

    /// Runs a worker whose wall clock is `offset` seconds off, on a store where the feed `held`
    /// is claimed by another worker until `leaseLeft` seconds from the server's now, beside a
    /// free feed `free`; `body` then watches its passes.
    static func withSkewedWorker(
        offset: TimeInterval, leaseLeft: TimeInterval, _ body: (Starts) async throws -> Void
    ) async throws {
        // Without a server outside CI, `available` says so; in CI the harness fails for want of one.
        guard HarnessStore.available.contains(.postgres) else { return }
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: """
                feeds:
                  - { name: held, adapter: items, url: items.json, every: 1s }
                  - { name: free, adapter: items, url: items.json, every: 1s }
                """,
            files: ["items.json": Data(#"[{"id": "a", "value": 1}]"#.utf8)], store: .postgres)
        let engine = try await Engine.open(try harness.config())
        let store = engine.store
        let serverNow = try #require(try await store.clock())
        try await store.plan(
            [PlannedFeed(feed: "held", schedule: "every 1s", due: serverNow)],
            overdueBefore: Date(timeIntervalSince1970: 0))
        let claimed = try await store.claim(
            excluding: [], worker: "other", now: serverNow.addingTimeInterval(leaseLeft - 60), dueBy: serverNow,
            lease: .seconds(60), limit: 1)
        try #require(claimed.map(\.feed) == ["held"])

        let clock = WorkerClockTests.SteppedClock()
        clock.step(to: offset)
        let starts = Starts()
        var worker = Worker(engine: engine, name: "skewed", observer: starts)
        worker.clock = clock
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let running = Task { [worker] in try await worker.run(commands: commands) }
        defer { running.cancel() }
        try await body(starts)
        control.yield(.stop)
        control.finish()
        try await running.value
        try await engine.close()
    }

    @Test func aWorkerAheadDoesNotTakeAFeedWhoseLeaseAnotherStillHolds() async throws {
        // Two minutes ahead, the other worker's lease (a minute left) looks long over.
        try await Self.withSkewedWorker(offset: 120, leaseLeft: 60) { starts in
            let ranFree = try await starts.wait(for: "free", count: 3)
            #expect(ranFree, "\(starts.all)")
            #expect(!starts.all.contains("held"), "took the feed another worker holds: \(starts.all)")
        }
    }

    @Test func aWorkerBehindTakesAFeedOnceItsLeaseRanOutOnTheServer() async throws {
        // Two minutes behind, a lease that ends in a second would look a further two minutes away.
        try await Self.withSkewedWorker(offset: -120, leaseLeft: 1) { starts in
            let ranHeld = try await starts.wait(for: "held", count: 1)
            #expect(ranHeld, "\(starts.all)")
        }
    }
}
