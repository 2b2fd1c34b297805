import FeedKit
import Foundation

/// What the engine needs of a store to run feeds into it, whichever database holds it: SQLite
/// (`FeedStoreSQLite`, the embedded default) or PostgreSQL (`FeedStorePostgres`).
///
/// Every requirement is one job of a run: open a pass (its run row, its tables, its
/// transaction), record how it ended, deliver its outbox; what it reads (the feed's bookmarks
/// and cached responses, the rows, the schedule) is ``StoreReading``. Writes of a pass go
/// through its ``FeedTransaction``; the others are each their own transaction.
package protocol StoreDriver: StoreReading, Sendable {
    /// Runs `body` in a write transaction of its own, committed when it returns (the primitive
    /// of the writes written once, as GRDB's `DatabaseWriter`'s).
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Marks `interrupted` the runs of `feeds` still `running` that no process is running any
    /// more, in the transaction of a schedule board's claim of them: on a store shared by
    /// machines (``StoreCapabilities/sharedByMachines``) a worker that died left them so. The
    /// default does nothing: a store one process holds marks them when it is opened.
    func takeOverRuns(of feeds: [String], in connection: any SQLConnection) throws
    /// Takes the lease that keeps a second pass of `feed` from running at the same time, waiting
    /// up to `wait` for it; the lease is held until the returned object goes away. `nil` when the
    /// store needs none (a SQLite store is locked as a whole by the engine).
    ///
    /// - Throws: when another pass holds the lease all that time ("feed busy").
    func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject?
    /// Records the start of `feed`'s pass; returns the run id. Its tables are prepared in its
    /// transaction (``passTransaction(feed:run:stamp:bindings:)``), not here.
    func startRun(feed: String, adapter: AdapterOrigin, at started: Date) async throws -> Int64
    /// The transaction of the pass `run` of `feed`, which writes `bindings` stamped `stamp`.
    func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction
    /// Records a failed pass in a transaction of its own, with outbox events (sealed URLs), the
    /// rejects the pass had written before it rolled back, so that they explain why it failed,
    /// and the credential `_state` it had set (`auth.*`, `nil` removes a key): a refresh token
    /// the endpoint rotated during the pass is the only one it still accepts.
    func recordFailedRun(
        _ id: Int64, feed: String, outcome: RunOutcome, outbox: [String], rejects: [Reject],
        credentials: [String: String?]
    ) async throws
    /// Keeps credential `_state` of `feed` (`auth.*`, `nil` removes a key) in a transaction of
    /// its own, committed at once: an OAuth2 token a pass obtained (before its transaction holds
    /// the store) or the media mirror renewed, whose rotated refresh token is the only one the
    /// endpoint still accepts.
    func recordCredentials(_ credentials: [String: String?], feed: String) async throws
    /// Keeps credential `_state` of `feed` durable at once while the pass's transaction holds
    /// the store's one writer (SQLite), so that ``recordCredentials(_:feed:)`` would wait for
    /// the pass: a token renewed mid-pass must outlive a process killed before the commit. The
    /// pass's transaction stores them too; reads prefer what was set aside until then.
    func setAsideCredentials(_ credentials: [String: String?], feed: String) async throws
    /// Marks runs left `running` by a process that died as `interrupted`.
    func markInterruptedRuns() async throws
    /// Drops an entity or a feed in one transaction (``StoreDrop``); returns what was removed.
    func drop(_ target: DropTarget) async throws -> String
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
    package func takeOverRuns(of feeds: [String], in connection: any SQLConnection) throws {}
}
