import FeedKit
import Foundation

/// What the engine needs of a store to run feeds into it, whichever database holds it: SQLite
/// (`FeedStoreSQLite`, the embedded default) or PostgreSQL (`FeedStorePostgres`).
///
/// The requirements are what a driver does its own way: a write transaction (as GRDB's
/// `DatabaseWriter`), a pass's transaction (``FeedTransaction``), a feed's lease, and the hooks
/// of the jobs written once on them, in extensions named for their tables: a run's row and how
/// it ended (`StoreRuns`), credentials (`StoreState`), the schedule (`StoreSchedule`), drops
/// (`StoreDrop`). What it reads is ``StoreReading``'s.
package protocol StoreDriver: StoreReading, Sendable {
    /// Runs `body` in a write transaction of its own, committed when it returns (the primitive
    /// of the writes written once, as GRDB's `DatabaseWriter`'s).
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Marks `interrupted` the runs still `running` (of `feeds`, or of every feed when `nil`)
    /// that no process is running any more: the hook of ``markInterruptedRuns()``, and on a store
    /// shared by machines (``StoreCapabilities/sharedByMachines``) of a schedule board's claim,
    /// in its transaction, as a worker that died left them so. The default marks them all: one
    /// process holds the store.
    func interruptAbandonedRuns(of feeds: [String]?, in connection: any SQLConnection) throws
    /// Makes way for a new run of `feed`, whose pass holds the feed's lease, in the transaction
    /// that records it (``startRun(feed:adapter:at:)``). The default does nothing.
    func beginRun(of feed: String, in connection: any SQLConnection) throws
    /// Takes the lease that keeps a second pass of `feed` from running at the same time, waiting
    /// up to `wait` for it; the lease is held until the returned object goes away. `nil` when the
    /// store needs none (a SQLite store is locked as a whole by the engine).
    ///
    /// - Throws: when another pass holds the lease all that time ("feed busy").
    func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject?
    /// The transaction of the pass `run` of `feed`, which writes `bindings` stamped `stamp`.
    func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction
    /// Closes the store's connections once the engine is done with it; nothing may use the
    /// store afterwards.
    func close() async throws
    /// The store's file, when the store is one (SQLite): its holder record and the worker's
    /// run requests are kept beside it. `nil` for a server.
    var file: String? { get }
    /// Whether this process holds the store's exclusive lock (a SQLite store opened for running
    /// feeds), so that no other process is using the store.
    var holdsExclusiveLock: Bool { get }
}

extension StoreDriver {
    package func interruptAbandonedRuns(of feeds: [String]?, in connection: any SQLConnection) throws {
        try StoreRuns.interrupt(of: feeds, in: connection)
    }

    package func beginRun(of feed: String, in connection: any SQLConnection) throws {}
}
