import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// A pass that lost its feed's lease while it ran never commits over a later run of the feed
/// (``PostgresRunFence``): the run ids of a feed are its fencing tokens.
@Suite("PostgreSQL: a pass that lost its lease")
struct PostgresRunFenceTests {
    static let origin = AdapterOrigin(name: "items", module: "Tests")

    /// Starts a pass of `shop` in `store`, its transaction open with a write in it.
    static func openPass(_ store: Store) async throws -> (run: Int64, FeedTransaction) {
        let run = try await store.startRun(feed: "shop", adapter: origin, at: Date())
        let transaction = store.passTransaction(feed: "shop", run: run, stamp: Timestamp.string(Date()), bindings: [])
        try await transaction.send { scope in try scope.setState("cursor", "42") }
        return (run, transaction)
    }

    /// Records the pass's run and commits it, as a pass ends.
    static func commit(_ pass: FeedTransaction) async throws {
        try await pass.send { scope in try scope.recordRun(PostgresStoreTests.outcome(.ok)) }
        try await pass.finish(commit: true)
    }

    @Test func aPassCommitsWhenNoLaterRunOfItsFeedStarted() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let (run, pass) = try await Self.openPass(store)
            try await Self.commit(pass)
            #expect(try await store.runs(feed: "shop", before: nil, limit: 5).map(\.status) == ["ok"])
            #expect(run > 0)
        }
    }

    @Test func aPassRollsBackWhenALaterRunOfItsFeedStartedMeanwhile() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let (run, pass) = try await Self.openPass(store)
            // Another worker found the feed free (this pass's lease session was ended) and
            // started the feed's next run.
            let later = try await store.startRun(feed: "shop", adapter: Self.origin, at: Date())
            let error = await #expect(throws: StoreError.self) { try await Self.commit(pass) }
            #expect(
                "\(error.map(String.init(describing:)) ?? "")".contains(
                    "the pass of 'shop' (run \(run)) lost the feed's lease while it ran: run \(later) of the feed started since"
                ))
            let statuses = try await store.runs(feed: "shop", before: nil, limit: 5).map(\.status)
            #expect(statuses == ["running", "interrupted"], "nothing of the stale pass was committed")
            #expect(try await store.state(feed: "shop", key: "cursor") == nil)
        }
    }

    @Test func aPassRollsBackWhenAnotherWorkerMarkedItsRunInterrupted() async throws {
        try await PostgresTestServer.withStore { store, schema in
            let (_, pass) = try await Self.openPass(store)
            // No session holds the feed's lease (the test took none): a worker claiming the
            // feed marks the run interrupted, as it does when the lease's session was ended.
            try await store.markInterruptedRuns()
            await #expect(throws: StoreError.self) { try await Self.commit(pass) }
            #expect(try await store.runs(feed: "shop", before: nil, limit: 5).map(\.status) == ["interrupted"])
            _ = schema
        }
    }

    @Test func aRunThatStartsInterruptsTheRunsOfItsFeedLeftRunning() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let lost = try await store.startRun(feed: "shop", adapter: Self.origin, at: Date())
            let other = try await store.startRun(feed: "other", adapter: Self.origin, at: Date())
            // The pass starting holds the feed's lease: the run left running lost it.
            let next = try await store.startRun(feed: "shop", adapter: Self.origin, at: Date())
            let runs = try await store.runs(feed: nil, before: nil, limit: 5)
            #expect(runs.map(\.run) == [next, other, lost])
            #expect(runs.map(\.status) == ["running", "running", "interrupted"])
        }
    }

    @Test func aRunOfAnotherFeedDoesNotFenceThePass() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let (_, pass) = try await Self.openPass(store)
            _ = try await store.startRun(feed: "other", adapter: Self.origin, at: Date())
            try await Self.commit(pass)
            #expect(try await store.runs(feed: "shop", before: nil, limit: 5).map(\.status) == ["ok"])
        }
    }
}
