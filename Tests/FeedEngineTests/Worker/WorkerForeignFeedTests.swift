import FeedKit
import FeedStore
import FeedTestSupport
import Foundation
import GRDB
import Testing

@testable import FeedEngine

/// A worker's claims name the feeds it cannot take rather than those it can, so a feed on the
/// board that its config does not schedule (dropped from it, or only in another worker's) is
/// named too: left for others, never claimed and given back over and over.
@Suite struct WorkerForeignFeedTests {
    /// Runs a worker scheduling `kept` (every second) on a SQLite store whose board also holds
    /// `gone`, overdue; `during` runs once `kept` has passed once. Returns how many times each
    /// feed was claimed, counted by a trigger on the board.
    static func claims(during body: (Engine) async throws -> Void = { _ in }) async throws -> [String: Int] {
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: """
                defaults: { spread: false }
                feeds:
                  - { name: kept, adapter: items, url: items.json, every: 1s }
                """,
            files: ["items.json": Data(#"[{"id": "a", "value": 1}]"#.utf8)])
        let path = try harness.config().storePath
        let engine = try await Engine.open(try harness.config())
        try await engine.store.plan(
            [PlannedFeed(feed: "gone", schedule: "every 1h", due: Date() - 60)],
            overdueBefore: Date(timeIntervalSince1970: 0))
        let database = try DatabaseQueue(path: path)
        try await database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE test_claims(feed TEXT);
                    CREATE TRIGGER test_claim AFTER UPDATE OF claimed_by ON _schedule
                    WHEN NEW.claimed_by IS NOT NULL BEGIN INSERT INTO test_claims VALUES (NEW.feed); END;
                    """)
        }
        let passes = WorkerClaimAheadTests.Starts()
        let worker = Worker(engine: engine, name: "w", observer: passes)
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let running = Task { [worker] in try await worker.run(commands: commands) }
        defer { running.cancel() }
        #expect(try await WorkerClaimAheadTests.wait { passes.ended("kept") >= 1 })
        try await body(engine)
        let ended = passes.ended("kept")
        #expect(try await WorkerClaimAheadTests.wait { passes.ended("kept") >= ended + 3 })
        control.yield(.stop)
        control.finish()
        try await running.value
        let counts = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT feed, count(*) FROM test_claims GROUP BY feed")
                .reduce(into: [String: Int]()) { $0[$1[0]] = $1[1] }
        }
        try await engine.close()
        return counts
    }

    @Test func aFeedOnTheBoardThatTheConfigDoesNotScheduleIsNeverClaimed() async throws {
        let counts = try await Self.claims()
        #expect(counts["gone"] == nil, "claims: \(counts)")
        #expect((counts["kept"] ?? 0) >= 4, "claims: \(counts)")
    }

    @Test func aFeedAnotherConfigPutOnTheBoardIsClaimedAtMostOnce() async throws {
        let counts = try await Self.claims { engine in
            try await engine.store.plan(
                [PlannedFeed(feed: "added", schedule: "every 1h", due: Date() - 60)],
                overdueBefore: Date(timeIntervalSince1970: 0))
        }
        #expect((counts["added"] ?? 0) <= 1, "claims: \(counts)")
        #expect(counts["gone"] == nil, "claims: \(counts)")
    }
}
