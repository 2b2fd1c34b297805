import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// The store's idle connections (``PostgresConnectionPool``): passes and leases reuse them, one
/// that died while idle is replaced, and no more than the capacity wait.
@Suite("PostgreSQL connection pool")
struct PostgresConnectionPoolTests {
    static func backend(_ connection: PostgresConnection) throws -> String {
        try connection.execute("SELECT pg_backend_pid()")[0, 0] ?? ""
    }

    static func noPreparation(_ connection: PostgresConnection) throws(PostgresError) {}

    /// A pool on `url` holding one idle connection, and that connection's server process id.
    static func poolWithOneIdle(url: String) throws -> (pool: PostgresConnectionPool, pid: String) {
        let pool = PostgresConnectionPool(url: url)
        let first = try pool.take(prepare: noPreparation)
        let pid = try backend(first)
        pool.giveBack(first)
        return (pool, pid)
    }

    @Test func aConnectionGivenBackIsTheNextOneTaken() throws {
        guard let url = PostgresTestServer.url else { return PostgresTestServer.reportAbsence() }
        let (pool, pid) = try Self.poolWithOneIdle(url: url)
        #expect(pool.idleCount == 1)
        let again = try pool.take(prepare: Self.noPreparation)
        #expect(try Self.backend(again) == pid)
        #expect(pool.idleCount == 0)
        #expect(pool.openedCount == 1)
    }

    @Test func aConnectionThatDiedWhileIdleIsReplacedByANewOne() throws {
        guard let url = PostgresTestServer.url else { return PostgresTestServer.reportAbsence() }
        let (pool, pid) = try Self.poolWithOneIdle(url: url)
        // The server ends that session, as a restart would.
        try PostgresConnection(url: url).execute("SELECT pg_terminate_backend($1::int)", [pid])
        let next = try pool.take { connection throws(PostgresError) in try connection.execute("SELECT 1") }
        #expect(try Self.backend(next) != pid)
        #expect(pool.idleCount == 0)
        #expect(pool.openedCount == 2, "the dead connection dropped, a new one made")
    }

    @Test func aFullPoolClosesTheConnectionsThatComeBack() throws {
        guard let url = PostgresTestServer.url else { return PostgresTestServer.reportAbsence() }
        let pool = PostgresConnectionPool(url: url, capacity: 1)
        let (one, two) = (try pool.take(prepare: Self.noPreparation), try pool.take(prepare: Self.noPreparation))
        pool.giveBack(one)
        pool.giveBack(two)
        #expect(pool.idleCount == 1)
    }

    @Test func aStoreOpenedForRunningFeedsHasItsFirstPassConnectionsOpenAlready() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let pool = try store.postgres.pool
            // Three opened while the tables were made: the read connection took one, and the
            // first pass's lease and transaction find theirs waiting.
            #expect(pool.openedCount == 3)
            #expect(pool.idleCount == 2)
            let lease = try await store.lease(of: "shop", wait: .seconds(5))
            let transaction = store.passTransaction(
                feed: "shop", run: 1, stamp: "2026-01-01T00:00:01.000Z", bindings: [])
            try await transaction.send { try $0.setState("cursor", "1") }
            try await transaction.finish(commit: true)
            (lease as? PostgresFeedLease)?.release()
            #expect(pool.openedCount == 3)
        }
    }

    @Test func aStoreOpenedForReadingOpensNoConnectionInAdvance() async throws {
        try await PostgresTestServer.withStore { _, schema in
            let url = try #require(PostgresTestServer.url)
            let reading = try PostgresStore(url: url, schema: schema, migrating: false)
            #expect(reading.pool.openedCount == 0)
            #expect(reading.pool.idleCount == 0)
        }
    }

    @Test func passesAndLeasesOfOneFeedAfterAnotherOpenNoFurtherConnection() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let pool = try store.postgres.pool
            let opened = pool.openedCount
            for run in 1...4 {
                let lease = try await store.lease(of: "shop", wait: .seconds(5))
                let transaction = store.passTransaction(
                    feed: "shop", run: Int64(run), stamp: "2026-01-01T00:00:0\(run).000Z", bindings: [])
                try await transaction.send { try $0.setState("cursor", "\(run)") }
                try await transaction.finish(commit: true)
                (lease as? PostgresFeedLease)?.release()
            }
            // Every pass reused the two connections of the first, its lease's and its
            // transaction's.
            #expect(pool.openedCount == opened)
            #expect(pool.idleCount == 2)
        }
    }

    @Test func aFailedPassClosesItsConnectionRatherThanGivingItBack() async throws {
        try await PostgresTestServer.withStore { store, _ in
            let pool = try store.postgres.pool
            let (opened, idle) = (pool.openedCount, pool.idleCount)
            let transaction = store.passTransaction(
                feed: "shop", run: 1, stamp: "2026-01-01T00:00:01.000Z", bindings: [])
            struct Refused: Error {}
            try? await transaction.send { _ in throw Refused() }
            await #expect(throws: StoreError.self) { try await transaction.finish(commit: true) }
            #expect(pool.openedCount == opened)
            #expect(pool.idleCount == idle - 1)
        }
    }

    @Test func aReleasedLeaseLeavesNoLockOnItsPooledConnection() async throws {
        try await PostgresTestServer.withStore { store, schema in
            let pool = try store.postgres.pool
            let url = try #require(PostgresTestServer.url)
            let idle = pool.idleCount
            let lease = try await store.lease(of: "shop", wait: .seconds(5))
            (lease as? PostgresFeedLease)?.release()
            // Another process's store takes the lease at once: the pooled connection holds no lock.
            let other = try PostgresStore(url: url, schema: schema)
            let taken = try await other.lease(of: "shop", wait: .milliseconds(0))
            #expect(taken != nil)
            #expect(pool.idleCount == idle, "the lease's connection is back in the pool")
        }
    }
}
