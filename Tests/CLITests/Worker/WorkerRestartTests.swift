import FeedEngine
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// A worker started on a SQLite store after another was killed mid-pass: it holds the store's
/// lock, so the dead worker's claims are taken at once rather than after their lease.
@Suite("feedwork worker: restart on SQLite")
struct WorkerRestartTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("worker-restart")
    }

    @Test func aRestartedWorkerRunsTheFeedItsKilledPredecessorHeldAtOnce() async throws {
        // The first request stalls, holding the first worker's pass (and its claim); later ones answer at once.
        let first = Mutex(true)
        let server = try LoopbackServer { _ in
            let stall = first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst
            }
            return LoopbackReply.json(#"{"items":[{"id":1,"pass":1}]}"#).delayed(by: stall ? .seconds(300) : .zero)
        }
        // A lease of 10 minutes: waiting it out would outlast the test's 60 s deadline.
        try WorkerConfig.write(
            feeds: [("f1", "1h")], server: server, directory: directory, header: "defaults: { lease: 10m }\n")
        let killed = try FeedworkProcess.startCollecting(["worker"], in: directory)
        try await server.waitForRequests(1)
        killed.send(SIGKILL)
        _ = await killed.finish()

        let restarted = try FeedworkProcess.startCollecting(["worker", "--json", "--wait", "10s"], in: directory)
        let deadline = Date().addingTimeInterval(60)
        while server.requestCount < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let ranAgain = server.requestCount >= 2
        // The pass's line is printed once it committed.
        var runs: [WorkerRun] = []
        while ranAgain, Date() < deadline {
            runs = try await WorkerRun.all(in: directory)
            if runs.contains(where: { $0.status == "ok" }) { break }
            try await Task.sleep(for: .seconds(0.1))
        }
        restarted.send(SIGTERM)
        let result = await restarted.finish()
        #expect(ranAgain, "the restarted worker never ran f1: \(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(runs.map(\.status).sorted() == ["interrupted", "ok"], "\(runs.map(\.status))")
    }
}
