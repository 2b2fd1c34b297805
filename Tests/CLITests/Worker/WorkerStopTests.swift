import FeedEngine
import FeedTestSupport
import Foundation
import Testing

/// SIGTERM during a pass: the worker exits 0 within its grace time, and the pass either
/// committed whole or left its feed as it was.
@Suite("feedwork worker: graceful stop")
struct WorkerStopTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("worker-stop")
    }

    /// The paged items feed of ``PagedItemsFeed/slowServer(delay:)``, every hour.
    func slowFeed(delay: Duration) throws -> LoopbackServer {
        let server = try PagedItemsFeed.slowServer(delay: delay)
        let yaml =
            "feeds:\n" + PagedItemsFeed.yaml(name: "slow", url: server.url("/items"))
            + "\n    every: 1h\n    spread: false\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        return server
    }

    /// The pass takes 15 s (10 pages of 1.5 s), so that the stop lands in it even when a loaded
    /// machine sends it late, and a worker that waited for it would take 10 s or more.
    @Test func aPassLongerThanTheGraceTimeRollsBackAndTheWorkerExitsZero() async throws {
        let server = try slowFeed(delay: .milliseconds(1500))
        let worker = try FeedworkProcess.startCollecting(["worker", "--grace", "1s"], in: directory)
        try await server.waitForRequests(3)
        let stopped = Date()
        worker.send(SIGTERM)
        let result = await worker.finish()
        let took = Date().timeIntervalSince(stopped)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(took < 7, "the grace time is 1 s; the worker took \(took) s")
        #expect(result.stdout.contains("[slow] interrupted"), "\(result.stdout)")
        let items = try await FeedworkProcess.run(["export", "item"], in: directory)
        #expect(items.stdout.isEmpty, "the pass was rolled back whole: \(items.stdout)")
        await #expect(try WorkerRun.all(in: directory).map(\.status) == ["interrupted"])
    }

    @Test func aPassWithinTheGraceTimeFinishesAndCommits() async throws {
        let server = try slowFeed(delay: .milliseconds(100))
        let worker = try FeedworkProcess.startCollecting(["worker", "--grace", "30s"], in: directory)
        try await server.waitForRequests(2)
        worker.send(SIGTERM)
        let result = await worker.finish()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requestCount == 10, "the pass went on to its last page")
        let items = try await FeedworkProcess.run(["export", "item", "--format", "ndjson"], in: directory)
        #expect(items.stdout.split(separator: "\n").count == 10, "\(items.stdout)")
        await #expect(try WorkerRun.all(in: directory).map(\.status) == ["ok"])
    }

    @Test func sighupReloadsTheConfigAndABrokenOneIsReportedAndKept() async throws {
        let server = try WorkerConfig.server()
        try WorkerConfig.write(feeds: [("f1", "1h")], server: server, directory: directory)
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        try await server.waitForRequests(1)
        try Data("feeds: [ {".utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        worker.send(SIGHUP)
        try await Task.sleep(for: .seconds(0.5))
        try WorkerConfig.write(feeds: [("f1", "1h"), ("f2", "1h")], server: server, directory: directory)
        worker.send(SIGHUP)
        try await server.waitForRequests(2)
        worker.send(SIGTERM)
        let result = await worker.finish()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the config has problems; the old one stays in use"), "\(result.stderr)")
        #expect(
            result.stderr.contains("feeds.yaml:2:1: error: YAML syntax"), "the problem names its line: \(result.stderr)"
        )
        await #expect(Set(try WorkerRun.all(in: directory).map(\.feed)) == ["f1", "f2"])
    }
}
