import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// Two `feedwork run` on one store: the second waits for the first (bounded by `--wait`) or
/// reports it busy ("store in use" for SQLite, whose store a run locks as a whole; "feed busy"
/// for PostgreSQL, which leases each feed); `export` and `list` read the store while a run
/// writes it. Each test runs on both stores.
@Suite("Reliability: concurrent runs on one store")
struct ConcurrentRunTests {
    static let body = #"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#

    /// A folder whose feeds.yaml has one fruit feed on a loopback server that answers after
    /// `delay` once `slow` is set, stored on `driver` (a PostgreSQL schema of its own).
    final class SlowStore: Sendable {
        let directory: URL
        let server: LoopbackServer
        let postgres: (url: String, schema: String)?

        init(delay: Duration = .milliseconds(1500), driver: HarnessStore = .sqlite) throws {
            directory = try FeedworkProcess.makeFolder("lock")
            let slow = Mutex(false)
            server = try LoopbackServer { _ in
                let reply = LoopbackReply.json(ConcurrentRunTests.body)
                return slow.withLock { $0 } ? reply.delayed(by: delay) : reply
            }
            slowFlag = { slow.withLock { $0 = true } }
            switch driver {
            case .sqlite: postgres = nil
            case .postgres:
                guard let url = HarnessStore.postgresURL else { throw HarnessError.noPostgres }
                postgres = (url, HarnessStore.schemaName("cli"))
            }
            let store = postgres.map { "store: \"\($0.url)\"\nschema: \($0.schema)\n" } ?? ""
            let yaml =
                store + """
                    feeds:
                      - name: fruit
                        adapter: fruit
                        url: \(server.url("/fruit"))
                    """
            try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        }

        private let slowFlag: @Sendable () -> Void

        deinit {
            if let postgres {
                _ = try? PostgresStoreCommandTests.psql(postgres.url, "DROP SCHEMA \(postgres.schema) CASCADE")
            }
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// A first, quick run so the store has rows, then every answer is slow.
        func prepare() async throws {
            let first = try await FeedworkProcess.run(["run"], in: directory)
            #expect(first.status == 0, "\(first.stderr)")
            slowFlag()
        }

        /// Starts `feedwork run` and returns once its request reached the server, which is
        /// after it took the store's lock.
        func startSlowRun() async throws -> Process {
            let before = server.requestCount
            let process = try FeedworkProcess.start(["run"], in: directory)
            let deadline = Date().addingTimeInterval(60)
            while server.requestCount == before && Date() < deadline && process.isRunning {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server.requestCount > before, "the first run reached the server")
            return process
        }
    }

    @Test(arguments: HarnessStore.available)
    func aSecondRunWithAShortWaitExitsSayingTheStoreOrFeedIsBusy(driver: HarnessStore) async throws {
        // Far longer than the second process can take on a loaded machine; the first run is
        // interrupted once the second is done.
        let store = try SlowStore(delay: .seconds(60), driver: driver)
        try await store.prepare()
        let first = try await store.startSlowRun()
        let second = try await FeedworkProcess.run(["run", "--wait", "200ms"], in: store.directory)
        #expect(second.status == 1)
        let busy = driver == .sqlite ? "store in use" : "feed busy: another pass of 'fruit'"
        #expect((second.stdout + second.stderr).contains(busy), "\(second.stdout)\(second.stderr)")
        #expect((second.stdout + second.stderr).contains("--wait"))
        #expect(first.isRunning, "the second run gave up while the first still held the store")
        first.interrupt()
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(first.terminationStatus == 130, "the first run was interrupted, not failed")
    }

    @Test(arguments: HarnessStore.available)
    func aSecondRunWithTheDefaultWaitCompletesAfterTheFirst(driver: HarnessStore) async throws {
        let store = try SlowStore(driver: driver)
        try await store.prepare()
        let first = try await store.startSlowRun()
        let second = try await FeedworkProcess.run(["run", "--json"], in: store.directory)
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        // The second run started only once the first had finished (the process may still have
        // been exiting when the second one was done, so its runs in the store tell the order).
        let history = try await FeedworkProcess.run(["runs", "--json"], in: store.directory)
        let runs = try #require(
            try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], "\(history.stderr)")
        #expect(runs.count == 3, "the preparing run, the slow first run, the second run")
        // Newest first.
        if runs.count == 3, let firstFinished = runs[1]["finished_at"] as? String,
            let secondStarted = runs[0]["started_at"] as? String
        {
            #expect(secondStarted >= firstFinished, "the second run waited for the first")
        }
        #expect(first.terminationStatus == 0)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains(#""status" : "ok""#) || second.stdout.contains(#""status":"ok""#))
    }

    @Test(arguments: HarnessStore.available)
    func exportAndListReadTheStoreDuringARun(driver: HarnessStore) async throws {
        // The run waits far longer than the readers can take on a loaded machine; it is
        // interrupted once they are done.
        let store = try SlowStore(delay: .seconds(60), driver: driver)
        try await store.prepare()
        let first = try await store.startSlowRun()
        let export = try await FeedworkProcess.run(["export", "fruit"], in: store.directory)
        let list = try await FeedworkProcess.run(["list"], in: store.directory)
        #expect(first.isRunning, "the readers ran while the run was writing")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(#""type":"apple""#), "\(export.stdout)")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("fruit"))
        first.interrupt()
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    }
}
