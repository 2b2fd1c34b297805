import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

/// A worker claims a feed shortly before it is due and starts it from memory at its due time.
/// On SQLite a claim is a write, which waits behind an open pass transaction on the one writer:
/// a feed claimed only once due started only when that transaction ended.
@Suite struct WorkerClaimAheadTests {
    /// The passes a worker started, with how late.
    final class Starts: WorkerObserver {
        private let log = Mutex<[(feed: String, lag: TimeInterval)]>([])
        private let ends = Mutex<[String]>([])

        func started(_ feed: String) -> [TimeInterval] { log.withLock { $0.filter { $0.feed == feed }.map(\.lag) } }
        func ended(_ feed: String) -> Int { ends.withLock { $0.filter { $0 == feed }.count } }

        func worker(_ event: WorkerEvent) {
            switch event {
            case .passStarted(let feed, _, let lag): log.withLock { $0.append((feed, lag)) }
            case .passFinished(let report, _, _, _): ends.withLock { $0.append(report.feed) }
            default: break
            }
        }
    }

    /// Waits until `condition` holds, for at most 60 s; whether it did.
    static func wait(until condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while try !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return try condition()
    }

    /// Whether the board of the SQLite store at `path` shows `feed` held by `worker` before it
    /// is due, read beside the worker.
    static func heldAhead(_ feed: String, by worker: String, in path: String) throws -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        let row = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT claimed_by, next_run_at FROM _schedule WHERE feed = ?", arguments: [feed])
        }
        guard let row, let holder: String = row[0], let due: String = row[1] else { return false }
        return holder == worker && (Timestamp.date(due) ?? .distantPast) > Date()
    }

    @Test func aFeedDueWhileAPassHoldsTheWriterStartsOnTime() async throws {
        let firstPage = DispatchSemaphore(value: 0)
        let secondPage = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { request in
            switch request.path {
            case "/held": firstPage.wait()
            case "/held-more": secondPage.wait()
            default: break
            }
            return .data(itemsJSON([(request.path, 1)]))
        }
        // `held` writes its first page, which opens its transaction, and then waits for its
        // second as long as the test holds it; `tick` runs every 5 s beside it.
        let yaml = """
            defaults: { concurrency: 2, spread: false }
            feeds:
              - { name: held, adapter: items, url: "\(server.url("/held"))", then: "\(server.url("/held-more"))",
                  every: 1h, timeout: 10m, retries: 0 }
              - { name: tick, adapter: items, url: "\(server.url("/tick"))", every: 5s }
            """
        let harness = try FeedHarness(registry: AdapterRegistry([ItemsAdapter.self]), yaml: yaml)
        let store = try harness.config().storePath
        let engine = try await Engine.open(try harness.config())
        let starts = Starts()
        var worker = Worker(engine: engine, name: "ahead", observer: starts)
        worker.pollInterval = .seconds(3600)
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let running = Task { [worker] in try await worker.run(commands: commands) }
        defer { running.cancel() }

        // After its first pass, `tick` is claimed again before it is due.
        #expect(try await Self.wait { starts.ended("tick") >= 1 }, "tick's first pass ended")
        let ahead = try await Self.wait { try Self.heldAhead("tick", by: "ahead", in: store) }
        #expect(ahead, "tick was held by the worker before it was due")
        // `held` opens its transaction and keeps it open; `tick` comes due meanwhile and starts
        // on time (its run's writes then wait for the writer).
        firstPage.signal()
        let second = try await Self.wait { starts.started("tick").count >= 2 }
        #expect(second, "tick's second pass started while held's transaction was open")
        if second { #expect(starts.started("tick")[1] < 5, "lag of tick's second pass: \(starts.started("tick"))") }
        secondPage.signal()
        #expect(try await Self.wait { starts.ended("held") == 1 && starts.ended("tick") >= 2 })
        control.yield(.stop)
        control.finish()
        try await running.value
        try await engine.close()
    }
}
