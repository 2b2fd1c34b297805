import FeedEngine
import FeedTestSupport
import Foundation
import Testing

/// Three workers on one PostgreSQL store share thirty feeds: every feed runs on time, the
/// feeds of a worker killed mid-pass are taken over within the lease, its passes leave their
/// feeds as they were, and no feed ever runs in two workers at once.
@Suite("feedwork worker: many workers on PostgreSQL")
struct PostgresWorkersTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("worker-postgres")
    }

    @Test func threeWorkersShareThirtyFeedsAndTakeOverAKilledWorkersFeedsWithinTheLease() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        // Each pass takes about 600 ms, so a kill lands in the middle of some.
        let server = try WorkerConfig.server(delay: .milliseconds(600))
        let feeds = (1...30).map { (name: "f\($0)", every: "2s") }
        try WorkerConfig.write(
            feeds: feeds, server: server, directory: directory,
            header: "store: \(url)\nschema: \(schema)\ndefaults: { concurrency: 6, lease: 3s }\n")
        let workers = try (1...3).map {
            try FeedworkProcess.startCollecting(["worker", "--name", "w\($0)"], in: directory)
        }
        try await Task.sleep(for: .seconds(5))
        // Killed in the middle of passes: while runs of feeds it holds are `running`.
        var held = ""
        let deadline = Date().addingTimeInterval(60)
        while held.isEmpty && Date() < deadline {
            held = try PostgresStoreCommandTests.psql(
                url,
                """
                SELECT coalesce(string_agg(r.feed, ','), '') FROM \(schema)._runs r
                JOIN \(schema)._schedule s ON s.feed = r.feed AND s.claimed_by = 'w1'
                WHERE r.status = 'running' AND r.started_at > now() - interval '300 milliseconds'
                """)
        }
        workers[0].send(SIGKILL)
        let killedAt = Date()
        try await Task.sleep(for: .seconds(8))
        for worker in workers.dropFirst() { worker.send(SIGTERM) }
        let stoppedAt = Date()
        for worker in workers.dropFirst() {
            let result = await worker.finish()
            #expect(result.status == 0, "\(result.stderr)")
        }
        _ = await workers[0].finish()

        let runs = try await WorkerRun.all(in: directory)
        #expect(
            WorkerRun.overlaps(runs, openUntil: killedAt).isEmpty, "\(WorkerRun.overlaps(runs, openUntil: killedAt))")
        let killed = runs.filter { $0.started < killedAt && ($0.finished == nil || $0.status == "interrupted") }
        #expect(killed.allSatisfy { $0.status == "interrupted" }, "the workers that took over marked them: \(killed)")
        #expect(!killed.isEmpty, "the kill landed in the middle of a pass (held: \(held))")
        for run in killed {
            let rows = try PostgresStoreCommandTests.psql(
                url, "SELECT count(*) FROM \(schema).item WHERE _run = \(run.id)")
            #expect(rows == "0", "the killed run \(run.id) of \(run.feed) left no row")
            let takeover = runs.filter { $0.feed == run.feed && $0.started > killedAt }.map(\.started).min()
            let after = try #require(takeover, "\(run.feed) ran again after the kill").timeIntervalSince(killedAt)
            #expect(after < 3 + 2 + 1.5, "\(run.feed) was taken over \(after) s after the kill (lease 3 s, every 2 s)")
        }
        for feed in feeds {
            let starts = runs.filter { $0.feed == feed.name }.map(\.started).sorted()
            let gaps = zip(starts, starts.dropFirst()).map { $1.timeIntervalSince($0) }
            let longest = max(gaps.max() ?? 0, stoppedAt.timeIntervalSince(starts.last ?? .distantPast))
            // Every 2 s; one wait of a lease (3 s) for the feeds the killed worker held.
            #expect(longest < 2 + 3 + 1.5, "\(feed.name): \(starts.count) runs, longest wait \(longest) s")
        }
    }
}
