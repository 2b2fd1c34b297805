import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// Two `feedwork run` on one store: the second waits for the first (bounded by `--wait`) or
/// exits with "store in use"; `export` and `list` read the store while a run writes it.
@Suite("Reliability: concurrent runs on one store")
struct ConcurrentRunTests {
    static let body = #"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#

    /// A folder whose feeds.yaml has one fruit feed on a loopback server that answers after
    /// `delay` once `slow` is set.
    final class SlowStore: Sendable {
        let directory: URL
        let server: LoopbackServer

        init(delay: Duration = .milliseconds(1500)) throws {
            directory = try FeedworkProcess.makeFolder("lock")
            let slow = Mutex(false)
            server = try LoopbackServer { _ in
                let reply = LoopbackReply.json(ConcurrentRunTests.body)
                return slow.withLock { $0 } ? reply.delayed(by: delay) : reply
            }
            slowFlag = { slow.withLock { $0 = true } }
            let yaml = """
                feeds:
                  - name: fruit
                    adapter: fruit
                    url: \(server.url("/fruit"))
                """
            try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        }

        private let slowFlag: @Sendable () -> Void

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// A first, quick run so the store has rows, then every answer is slow.
        func prepare() async throws {
            let first = try await FeedworkProcess.runOffPool(["run"], in: directory)
            #expect(first.status == 0, "\(first.stderr)")
            slowFlag()
        }

        /// Starts `feedwork run` and returns once its request reached the server, which is
        /// after it took the store's lock.
        func startSlowRun() async throws -> Process {
            let before = server.requestCount
            let process = try FeedworkProcess.start(["run"], in: directory)
            let deadline = Date().addingTimeInterval(20)
            while server.requestCount == before && Date() < deadline && process.isRunning {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server.requestCount > before, "the first run reached the server")
            return process
        }
    }

    @Test func aSecondRunWithAShortWaitExitsWithStoreInUse() async throws {
        // Long enough that the second process starts within it on a loaded machine.
        let store = try SlowStore(delay: .seconds(6))
        try await store.prepare()
        let first = try await store.startSlowRun()
        let second = try await FeedworkProcess.runOffPool(["run", "--wait", "200ms"], in: store.directory)
        #expect(second.status == 1)
        #expect(second.stderr.contains("store in use"), "\(second.stderr)")
        #expect(second.stderr.contains("--wait"))
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(first.terminationStatus == 0)
    }

    @Test func aSecondRunWithTheDefaultWaitCompletesAfterTheFirst() async throws {
        let store = try SlowStore()
        try await store.prepare()
        let first = try await store.startSlowRun()
        let second = try await FeedworkProcess.runOffPool(["run", "--json"], in: store.directory)
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        // The second run started only once the first had finished (the process may still have
        // been exiting when the second one was done, so its runs in the store tell the order).
        let runs = try EntityStore(path: store.directory.appendingPathComponent("feeds.sqlite").path)
            .query("SELECT started_at, finished_at FROM _runs ORDER BY id")
        #expect(runs.count == 3, "the preparing run, the slow first run, the second run")
        if runs.count == 3, case .text(let firstFinished)? = runs[1]["finished_at"],
            case .text(let secondStarted)? = runs[2]["started_at"]
        {
            #expect(secondStarted >= firstFinished, "the second run waited for the first")
        }
        #expect(first.terminationStatus == 0)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains(#""status" : "ok""#) || second.stdout.contains(#""status":"ok""#))
    }

    @Test func exportAndListReadTheStoreDuringARun() async throws {
        let store = try SlowStore(delay: .seconds(10))
        try await store.prepare()
        let first = try await store.startSlowRun()
        let export = try await FeedworkProcess.runOffPool(["export", "fruit"], in: store.directory)
        let list = try await FeedworkProcess.runOffPool(["list"], in: store.directory)
        #expect(first.isRunning, "the readers ran while the run was writing")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(#""type":"apple""#), "\(export.stdout)")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("fruit"))
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(first.terminationStatus == 0)
    }
}
