import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

/// A worker starts a due pass as soon as one of its `concurrency` slots is free, and wakes at
/// the next due time: never waiting for a look at the schedule on a fixed tick. Each worker
/// here looks at the board on its own only once an hour (`pollInterval`), so a pass that
/// waited for such a look would not run within the tests' deadline.
@Suite struct WorkerSlotTests {
    /// The passes a worker started and ended, in order: `start f1`, `end f1`...
    final class Passes: WorkerObserver {
        private let log = Mutex<[String]>([])
        var events: [String] { log.withLock { $0 } }
        var ended: Int { events.filter { $0.hasPrefix("end ") }.count }

        func worker(_ event: WorkerEvent) {
            switch event {
            case .passStarted(let feed, _, _): log.withLock { $0.append("start \(feed)") }
            case .passFinished(let report, _, _, _): log.withLock { $0.append("end \(report.feed)") }
            default: break
            }
        }

        /// Waits until `condition` holds, for at most 60 s; whether it did.
        func wait(until condition: () -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(60)
            while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return condition()
        }
    }

    /// A server whose answer to `/a` waits until ``release()``; other paths answer at once.
    final class HeldServer: Sendable {
        private let gate: DispatchSemaphore
        let server: LoopbackServer

        init() throws {
            let gate = DispatchSemaphore(value: 0)
            self.gate = gate
            server = try LoopbackServer { request in
                if request.path == "/a" { gate.wait() }
                return .data(itemsJSON([("a", 1)]))
            }
        }

        func release() { gate.signal() }
    }

    /// `names` feeds of the items adapter on `server`, each due at once and then every `every`,
    /// run by a worker with `concurrency` slots that looks at the board on its own hourly.
    private static func worker(
        names: [String], server: LoopbackServer, every: String, concurrency: Int, observer: Passes
    ) async throws -> (Engine, Worker, FeedHarness) {
        var yaml = "defaults: { concurrency: \(concurrency) }\nfeeds:\n"
        for name in names {
            // `a`, which a test's server holds, waits for it however long the other passes take
            // on a loaded machine: its request never times out nor is sent again.
            let patience = name == "a" ? ", timeout: 10m, retries: 0" : ""
            yaml +=
                "  - { name: \(name), adapter: items, url: \"\(server.url("/\(name)"))\", every: \(every), spread: false\(patience) }\n"
        }
        let harness = try FeedHarness(registry: AdapterRegistry([ItemsAdapter.self]), yaml: yaml)
        let engine = try await Engine.open(try harness.config())
        var worker = Worker(engine: engine, name: "slots", observer: observer)
        worker.pollInterval = .seconds(3600)
        return (engine, worker, harness)
    }

    /// The runs of each feed in the `_runs` of the SQLite store at `path`, read beside the worker.
    private static func runs(in path: String) throws -> [String: Int] {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        return try database.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT feed, count(*) FROM _runs GROUP BY feed") {
                counts[row[0]] = row[1]
            }
            return counts
        }
    }

    @Test func twoSlotsRunEveryDuePassOfSixFeeds() async throws {
        let server = try LoopbackServer { _ in .data(itemsJSON([("a", 1)])) }
        let passes = Passes()
        let names = (1...6).map { "f\($0)" }
        let (engine, worker, harness) = try await Self.worker(
            names: names, server: server, every: "2s", concurrency: 2, observer: passes)
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let running = Task { try await worker.run(commands: commands) }
        defer { running.cancel() }

        // Each feed is due at once, then every 2 s: three passes of each is their first and two
        // more that came due while the worker ran, each started when due or when a slot freed.
        let store = try harness.config().storePath
        let enough = try await passes.wait { ((try? Self.runs(in: store)) ?? [:]).values.filter { $0 >= 3 }.count == 6 }
        control.yield(.stop)
        control.finish()
        try await running.value
        try await engine.close()
        let counts = try Self.runs(in: store)
        #expect(enough, "runs of each feed in _runs: \(counts)")
        let statuses = try await DatabaseQueue(path: store).read {
            try String.fetchAll($0, sql: "SELECT status FROM _runs")
        }
        #expect(Set(statuses) == ["ok"], "\(statuses)")
    }

    @Test func aFreedSlotIsRefilledWhileAnotherPassIsHeld() async throws {
        let held = try HeldServer()
        let passes = Passes()
        // `a` is claimed first (due feeds are claimed by due time, then name).
        let names = ["a", "f1", "f2", "f3", "f4", "f5"]
        // The harness is kept to the end: it removes the store's folder as it goes.
        let (engine, worker, harness) = try await Self.worker(
            names: names, server: held.server, every: "1h", concurrency: 2, observer: passes)
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let running = Task { try await worker.run(commands: commands) }
        defer { running.cancel() }

        // One slot holds `a` for as long as the server holds its answer; the other runs the
        // five other feeds one after another, each started as the one before it ended.
        let others = try await passes.wait { passes.ended == 5 }
        #expect(others, "passes while 'a' was held: \(passes.events)")
        #expect(passes.events.first == "start a", "\(passes.events)")
        #expect(!passes.events.contains("end a"), "\(passes.events)")
        held.release()
        #expect(try await passes.wait { passes.ended == 6 }, "\(passes.events)")
        control.yield(.stop)
        control.finish()
        try await running.value
        try await engine.close()
        #expect(passes.events.filter { $0.hasPrefix("start ") }.count == 6, "\(passes.events)")
        let statuses = try await DatabaseQueue(path: try harness.config().storePath).read {
            try String.fetchAll($0, sql: "SELECT status FROM _runs")
        }
        #expect(statuses == Array(repeating: "ok", count: 6), "\(statuses)")
    }
}
