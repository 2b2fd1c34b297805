import FeedEngine
import FeedTestSupport
import Foundation
import Testing

/// `feedwork worker` and `feedwork serve` on a PostgreSQL server that restarts under them: each
/// reconnects, says so on `/healthz`, and carries on.
@Suite("PostgreSQL restarts under worker and serve")
struct PostgresRestartTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("postgres-restart")
    }

    @Test func theWorkerReconnectsAndRunsEveryFeedAgain() async throws {
        guard let postgres = try await ThrowawayPostgres.start() else { return }
        let server = try WorkerConfig.server()
        let feeds = (1...3).map { (name: "f\($0)", every: "1s") }
        try WorkerConfig.write(
            feeds: feeds, server: server, directory: directory,
            header: "store: \(postgres.url)\nschema: restart\ndefaults: { concurrency: 2 }\n")
        let port = try WorkerMetricsTests.freePort()
        let worker = try FeedworkProcess.startCollecting(
            ["worker", "--metrics", "127.0.0.1:\(port)"], in: directory)
        try await server.waitForRequests(6)
        let before = try await WorkerRun.all(in: directory)

        let stoppedAt = try await postgres.restart(down: 2)
        let restartedAt = Date()
        let requests = server.requestCount
        // Every feed runs at least twice more, each due every second.
        let deadline = Date().addingTimeInterval(60)
        while server.requestCount < requests + 6, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let health = try await HTTPGet.waitForOK("http://127.0.0.1:\(port)/healthz")
        worker.send(SIGTERM)
        let result = await worker.finish()

        #expect(server.requestCount >= requests + 6, "passes after the restart: \(server.requestCount - requests)")
        #expect(health.status == 200 && health.body == "ok\n", "/healthz: \(health)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("reconnected"), "the log says it reconnected: \(result.stderr)")
        let runs = try await WorkerRun.all(in: directory)
        for feed in feeds {
            let after = runs.filter { $0.feed == feed.name && $0.started > restartedAt }
            #expect(after.contains { $0.status == "ok" }, "\(feed.name) ran after the restart: \(after.map(\.status))")
        }
        let kept = Set(runs.map(\.id))
        #expect(before.allSatisfy { kept.contains($0.id) }, "every run stored before the restart is kept")
        #expect(!runs.contains { $0.status == "running" }, "no run left running: \(runs.map(\.status))")
        // A pass the restart broke may be left `interrupted` without an end (recording its
        // failure needed the server); it is taken to end when the server stopped, which ended
        // its transaction. Not when `restart` returned: the worker may have reconnected and
        // started the feed again before that.
        let overlaps = WorkerRun.overlaps(runs, openUntil: stoppedAt)
        #expect(overlaps.isEmpty, "\(overlaps)")
    }

    @Test func serveReconnectsAndAnswersAgain() async throws {
        guard let postgres = try await ThrowawayPostgres.start() else { return }
        let server = try WorkerConfig.server()
        try WorkerConfig.write(
            feeds: [("f1", "1h")], server: server, directory: directory,
            header: "store: \(postgres.url)\nschema: served\n")
        let run = try await FeedworkProcess.run(["run"], in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        let port = try WorkerMetricsTests.freePort()
        let serve = try FeedworkProcess.startCollecting(["serve", "--port", String(port)], in: directory)
        let base = "http://127.0.0.1:\(port)"
        let before = try await HTTPGet.waitForOK(base + "/api/feeds")
        try #require(before.status == 200, "served before the restart: \(before)")

        try await postgres.restart(down: 2)
        let rows = try await HTTPGet.waitForOK(base + "/api/entities/item/rows")
        let page = try await HTTPGet.waitForOK(base + "/")
        let health = try await HTTPGet.waitForOK(base + "/healthz")
        serve.send(SIGTERM)
        let result = await serve.finish()

        #expect(rows.status == 200 && rows.body.contains("\"pass\":1"), "rows after the restart: \(rows)")
        #expect(page.status == 200, "the overview after the restart: \(page.status)")
        #expect(health.status == 200 && health.body == "ok\n", "/healthz: \(health)")
        #expect(result.stderr.contains("reconnected"), "the log says it reconnected: \(result.stderr)")
    }
}
