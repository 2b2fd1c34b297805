import FeedEngine
import FeedTestSupport
import Foundation
import Testing

/// `feedwork run` beside a running `feedwork worker`: on SQLite the worker holds the store, and
/// runs the feeds the run asks for at once, its report printed by the run; on PostgreSQL the
/// run takes its feeds' leases beside the worker. A store that is really held says by what.
@Suite("feedwork run beside feedwork worker")
struct RunBesideWorkerTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("run-beside-worker")
    }

    /// `sched` runs every hour (once when the worker starts), `manual` only when asked.
    func writeConfig(server: LoopbackServer, header: String = "") throws {
        let feed = { (name: String) in
            """
              - name: \(name)
                adapter: json
                url: \(server.url("/\(name)"))
                records: items
                entity: item
                key: id
                fields: { id: int, pass: int }

            """
        }
        let yaml = header + "feeds:\n" + feed("sched") + "    every: 1h\n    spread: false\n" + feed("manual")
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test(arguments: HarnessStore.available)
    func aRunBesideAWorkerRunsItsFeedsAndPrintsTheirReport(store: HarnessStore) async throws {
        let server = try WorkerConfig.server()
        var header = ""
        var schema: String?
        if store == .postgres {
            guard let (url, name) = PostgresStoreCommandTests.server() else { return }
            header = "store: \"\(url)\"\nschema: \(name)\n"
            schema = name
        }
        defer {
            if let schema, let url = HarnessStore.postgresURL {
                _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE")
            }
        }
        try writeConfig(server: server, header: header)
        let worker = try FeedworkProcess.startCollecting(["worker", "--name", "w1"], in: directory)
        try await WorkerRun.waitForFinishedRun(in: directory, of: "sched")

        let manual = try await FeedworkProcess.run(["run", "--feed", "manual", "--json"], in: directory)
        #expect(manual.status == 0, "\(manual.stdout)\(manual.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(manual.stdout.utf8)) as? [String: Any], "\(manual.stdout)")
        let feeds = try #require(report["feeds"] as? [[String: Any]])
        #expect(feeds.map { $0["feed"] as? String } == ["manual"])
        #expect(feeds.first?["status"] as? String == "ok")
        #expect((feeds.first?["counts"] as? [String: Any])?["inserted"] as? Int == 3)
        if store == .sqlite {
            #expect(manual.stderr.contains("a feedwork worker 'w1' (pid \(worker.process.processIdentifier) on "))
            #expect(manual.stderr.contains("holds the store: it runs manual now"), "\(manual.stderr)")
        }

        // A scheduled feed runs again at once, beside its schedule, as a table.
        let before = server.requests.filter { $0.path == "/sched" }.count
        let sched = try await FeedworkProcess.run(["run", "--feed", "sched"], in: directory)
        #expect(sched.status == 0, "\(sched.stdout)\(sched.stderr)")
        #expect(sched.stdout.contains("sched"), "\(sched.stdout)")
        #expect(server.requests.filter { $0.path == "/sched" }.count == before + 1)

        #expect(worker.process.isRunning, "the worker keeps running")
        worker.send(SIGTERM)
        let stopped = await worker.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        if store == .sqlite {
            #expect(stopped.stdout.contains("[manual] ok"), "the worker printed the pass it ran: \(stopped.stdout)")
        }
        let runs = try await WorkerRun.all(in: directory)
        #expect(WorkerRun.overlaps(runs).isEmpty, "\(WorkerRun.overlaps(runs))")
    }

    @Test func aWorkerThatStopsBeforeAnsweringLeavesTheRunToRunItsFeedsItself() async throws {
        // One pass at a time, and the scheduled one lasts until the worker stops (then 1 s of
        // grace): the requested pass waits behind it.
        let server = try LoopbackServer { request in
            var reply = LoopbackReply.json(#"{"items":[{"id":1,"pass":1}]}"#)
            if request.path == "/sched" { reply.delay = .seconds(60) }
            return reply
        }
        try writeConfig(server: server, header: "defaults: { concurrency: 1 }\n")
        let worker = try FeedworkProcess.startCollecting(["worker", "--grace", "1s"], in: directory)
        let deadline = Date().addingTimeInterval(60)
        while !server.requests.contains(where: { $0.path == "/sched" }) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let run = try FeedworkProcess.startCollecting(["run", "--feed", "manual"], in: directory)
        let requests = directory.appendingPathComponent("feeds.sqlite-requests")
        while !FileManager.default.fileExists(atPath: requests.path) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        worker.send(SIGTERM)
        let stopped = await worker.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(!stopped.stdout.contains("[manual]"), "the stopping worker ran no requested pass")
        let result = await run.finish()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("manual"), "\(result.stdout)")
        #expect(server.requests.filter { $0.path == "/manual" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: requests.path), "the run left no request behind")
    }

    @Test func aFeedTheWorkersConfigLacksIsRefusedNamingIt() async throws {
        let server = try WorkerConfig.server()
        try writeConfig(server: server)
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        defer { worker.stop(SIGTERM) }
        try await WorkerRun.waitForFinishedRun(in: directory, of: "sched")
        // The run's own config has a feed the worker's (loaded before) does not.
        let config = directory.appendingPathComponent("other.yaml")
        let text = try String(contentsOf: directory.appendingPathComponent("feeds.yaml"), encoding: .utf8)
        try Data(text.replacingOccurrences(of: "name: manual", with: "name: extra").utf8).write(to: config)
        let result = try await FeedworkProcess.run(
            ["run", "-c", "other.yaml", "--feed", "extra"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the worker's config"), "\(result.stderr)")
        #expect(result.stderr.contains("has no feed 'extra'"), "\(result.stderr)")
    }

    @Test func aStoreHeldByARunSaysWhichRunHoldsIt() async throws {
        let store = try ConcurrentRunTests.SlowStore(delay: .seconds(60))
        try await store.prepare()
        let first = try await store.startSlowRun()
        let second = try await FeedworkProcess.run(["run", "--wait", "200ms"], in: store.directory)
        #expect(second.status == 1)
        let host = ProcessInfo.processInfo.hostName
        #expect(
            second.stderr.contains(
                "store in use: a feedwork run (pid \(first.processIdentifier) on \(host), since "),
            "\(second.stderr)")
        #expect(second.stderr.contains("waited 200ms; use --wait to wait longer"), "\(second.stderr)")
        first.interrupt()
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    }

    @Test func aSecondWorkerSaysWhichWorkerHoldsTheStore() async throws {
        let server = try WorkerConfig.server()
        try writeConfig(server: server)
        let worker = try FeedworkProcess.startCollecting(["worker", "--name", "first"], in: directory)
        defer { worker.stop(SIGTERM) }
        try await WorkerRun.waitForFinishedRun(in: directory, of: "sched")
        let second = try await FeedworkProcess.run(["worker", "--wait", "200ms"], in: directory)
        #expect(second.status == 1)
        #expect(
            second.stderr.contains(
                "store in use: a feedwork worker 'first' (pid \(worker.process.processIdentifier) on "),
            "\(second.stderr)")
    }
}
