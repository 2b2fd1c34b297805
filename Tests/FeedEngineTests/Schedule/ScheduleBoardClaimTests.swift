import FeedKit
import FeedStore
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

/// A claim takes the board's due feeds but those the worker names: the few it cannot take,
/// not the many it can. Planning again moves a feed no worker ran for too long.
@Suite struct ScheduleBoardClaimTests {
    /// An engine on `store` whose board holds `a`, `b` and `c`, due one second apart from ten
    /// seconds ago, and the board's time; the harness keeps the store while it lives.
    static func board(_ store: HarnessStore) async throws -> (FeedHarness, Engine, Date) {
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: """
                feeds:
                  - { name: a, adapter: items, url: items.json, every: 1h }
                """,
            files: ["items.json": Data(#"[{"id": "a", "value": 1}]"#.utf8)], store: store)
        let engine = try await Engine.open(try harness.config())
        let now = try await engine.store.clock() ?? Date()
        try await engine.store.plan(
            ["a", "b", "c"].enumerated().map { index, feed in
                PlannedFeed(feed: feed, schedule: "every 1h", due: now.addingTimeInterval(Double(index) - 10))
            }, overdueBefore: Date(timeIntervalSince1970: 0))
        return (harness, engine, now)
    }

    @Test(arguments: HarnessStore.available)
    func aClaimTakesEveryDueFeedButTheExcludedOnes(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        let claims = try await engine.store.claim(
            excluding: ["b"], worker: "w", now: now, dueBy: now, lease: .seconds(60), limit: 10)
        #expect(claims.map { $0.feed } == ["a", "c"])
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func theNextClaimableTimeIsTheEarliestOfTheFeedsNotExcluded(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        let next = try #require(await engine.store.nextClaimable(excluding: ["a"]))
        #expect(abs(next.timeIntervalSince(now.addingTimeInterval(-9))) < 0.01)
        #expect(try await engine.store.nextClaimable(excluding: ["a", "b", "c"]) == nil)
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    /// The due time of `feed` on the board after it is planned again, due in an hour, with
    /// feeds due before `cutoff` seconds from now counted as overdue.
    static func replanned(_ feed: String, cutoff: TimeInterval, on engine: Engine, now: Date) async throws -> Date? {
        try await engine.store.plan(
            [PlannedFeed(feed: feed, schedule: "every 1h", due: now.addingTimeInterval(3600))],
            overdueBefore: now.addingTimeInterval(cutoff))
        return try await engine.store.scheduleEntries()[feed]?.nextRunAt
    }

    @Test(arguments: HarnessStore.available)
    func aFeedOverdueSinceBeforeTheCutoffIsDueAtItsNewTime(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        let due = try #require(try await Self.replanned("a", cutoff: -5, on: engine, now: now))
        #expect(abs(due.timeIntervalSince(now.addingTimeInterval(3600))) < 0.01)
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func aFeedDueSinceTheCutoffKeepsItsTime(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        let due = try #require(try await Self.replanned("a", cutoff: -60, on: engine, now: now))
        #expect(abs(due.timeIntervalSince(now.addingTimeInterval(-10))) < 0.01)
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func anOverdueFeedAWorkerHoldsKeepsItsTime(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        _ = try await engine.store.claim(
            excluding: ["b", "c"], worker: "w", now: now, dueBy: now, lease: .seconds(60), limit: 1)
        let due = try #require(try await Self.replanned("a", cutoff: -5, on: engine, now: now))
        #expect(abs(due.timeIntervalSince(now.addingTimeInterval(-10))) < 0.01)
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func aFeedAnotherWorkerHoldsIsClaimedOnlyOnceItsLeaseRanOut(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        let board = engine.store
        func claim(_ worker: String, at time: Date) async throws -> [String] {
            try await board.claim(
                excluding: ["b", "c"], worker: worker, now: time, dueBy: time, lease: .seconds(60), limit: 10
            ).map(\.feed)
        }
        #expect(try await claim("w1", at: now) == ["a"])
        #expect(try await claim("w2", at: now.addingTimeInterval(30)).isEmpty)
        #expect(try await board.renew(feed: "a", worker: "w2", until: now.addingTimeInterval(90)) == false)
        let free = try #require(await board.nextClaimable(excluding: ["b", "c"]))
        #expect(abs(free.timeIntervalSince(now.addingTimeInterval(60))) < 0.01)
        #expect(try await claim("w2", at: now.addingTimeInterval(61)) == ["a"])
        #expect(try await board.renew(feed: "a", worker: "w1", until: now.addingTimeInterval(120)) == false)
        #expect(try await board.renew(feed: "a", worker: "w2", until: now.addingTimeInterval(120)) == true)
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func aReleasedFeedIsFreeAndDueAtItsNextTime(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        _ = try await engine.store.claim(
            excluding: ["b", "c"], worker: "w", now: now, dueBy: now, lease: .seconds(60), limit: 1)
        #expect(try await engine.store.scheduleEntries()["a"]?.worker == "w")
        try await engine.store.release(feed: "a", worker: "w", next: now.addingTimeInterval(3600))
        let entry = try #require(try await engine.store.scheduleEntries()["a"])
        #expect(entry.worker == nil && entry.leaseUntil == nil)
        #expect(abs(entry.nextRunAt.timeIntervalSince(now.addingTimeInterval(3600))) < 0.01)
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    /// On a store that machines share, a claim marks `interrupted` the runs of the feeds it
    /// claims that a dead worker left `running`, but not a run whose feed's lease a process
    /// holds; a store one process holds marks them when it is opened instead.
    @Test(arguments: HarnessStore.available)
    func aClaimTakesOverTheRunsADeadWorkerLeftRunning(store: HarnessStore) async throws {
        let (harness, engine, now) = try await Self.board(store)
        let origin = AdapterOrigin(name: "items", module: "Tests")
        var runs: [String: Int64] = [:]
        for feed in ["a", "b", "c"] {
            runs[feed] = try await engine.store.startRun(feed: feed, adapter: origin, at: now)
        }
        let lease = try await engine.store.lease(of: "c", wait: .seconds(5))
        let claims = try await engine.store.claim(
            excluding: ["b"], worker: "w", now: now, dueBy: now, lease: .seconds(60), limit: 10)
        #expect(claims.map(\.feed) == ["a", "c"])
        let statuses = Dictionary(
            uniqueKeysWithValues: try await engine.store.runs(feed: nil, limit: 10).map { ($0.run, $0.status) })
        #expect(statuses[runs["a"] ?? 0] == (store == .postgres ? "interrupted" : "running"))
        #expect(statuses[runs["b"] ?? 0] == "running")
        #expect(statuses[runs["c"] ?? 0] == "running")
        withExtendedLifetime(lease) {}
        try await engine.close()
        withExtendedLifetime(harness) {}
    }
}
