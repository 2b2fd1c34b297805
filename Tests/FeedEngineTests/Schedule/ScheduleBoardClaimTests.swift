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
}
