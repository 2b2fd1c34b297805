import FeedKit
import Foundation

/// What a database driver implements for Feedwork's store, whichever database holds it: SQLite
/// (`FeedStoreSQLite`, the embedded default) or PostgreSQL (`FeedStorePostgres`). With its
/// connection (``SQLConnection``), its SQL that differs (``SQLDialect``) and its entity writers
/// (``EntityWriting``), this is all a driver writes.
///
/// The requirements are the primitives and hooks of the jobs written once on top of them
/// (``Store`` and ``StoreReading``'s extensions, named for their tables: `StoreRuns`,
/// `StoreState`, `StoreSchedule`, `StoreDrop`...), as GRDB's `DatabaseReader` and
/// `DatabaseWriter` are of its requests: connections on the driver's threads, never on Swift's
/// cooperative pool, a pass's transaction, a feed's lease. The engine never calls a driver
/// directly: ``StoreFactory`` opens one and hands out the ``Store`` over it.
package protocol StoreDriver: Sendable {
    // Reading.

    /// The store, for messages: a file path or a server URL without its password.
    var location: String { get }
    /// The SQL that differs from one database to the other.
    var dialect: any SQLDialect { get }
    /// What the database does beyond its dialect's SQL.
    var capabilities: StoreCapabilities { get }
    /// Credentials set aside beside the store while a pass holds its one writer, read in place
    /// of the stored ones (``Store/setAsideCredentials(_:feed:)``); `nil` for a store whose
    /// passes write on connections of their own.
    var credentialJournal: CredentialJournal? { get }
    /// Runs `body` on a read connection.
    func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Runs `body`, which runs one statement, on a read connection: the statement reads a
    /// snapshot of its own, so a driver may leave out the transaction ``readSQL(_:)`` opens
    /// around it (a read that runs once per page of a pass).
    func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Runs `body` on one consistent, read-only snapshot of the store (an export reads all its
    /// tables from one), on a thread of the driver's; the errors `body` throws of its own pass
    /// through unwrapped.
    func snapshotSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Runs a person's `SELECT` or `WITH` statement (serve's SQL page), scanned already, with
    /// `values` bound to its parameters in order, read-only on a connection of its own, under
    /// the request's time and row limits, guarded as the database can against reading the
    /// system tables ``ReadOnlySQLPolicy`` hides; blocking (``StoreReading/runReadOnly(_:)``
    /// calls it on a thread of its own).
    func runReadOnly(_ statement: ReadOnlySQLStatement, values: [String], _ request: ReadOnlySQLRequest)
        throws(ReadOnlySQLError) -> ReadOnlySQLResult

    // Writing.

    /// Runs `body` in a write transaction of its own, committed when it returns.
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// The transaction of the pass `run` of `feed`, which writes `bindings` stamped `stamp`.
    func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction
    /// Takes the lease that keeps a second pass of `feed` from running at the same time, waiting
    /// up to `wait` for it; the lease is held until the returned object goes away. `nil` when the
    /// store needs none (a SQLite store is locked as a whole by the engine).
    ///
    /// - Throws: when another pass holds the lease all that time ("feed busy").
    func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject?
    /// Marks `interrupted` the runs still `running` (of `feeds`, or of every feed when `nil`)
    /// that no process is running any more: the hook of ``Store/markInterruptedRuns()``, and on
    /// a store shared by machines (``StoreCapabilities/sharedByMachines``) of a schedule board's
    /// claim, in its transaction, as a worker that died left them so. The default marks them
    /// all: one process holds the store.
    func interruptAbandonedRuns(of feeds: [String]?, in connection: any SQLConnection) throws
    /// Makes way for a new run of `feed`, whose pass holds the feed's lease, in the transaction
    /// that records it (``Store/startRun(feed:adapter:at:)``). The default does nothing.
    func beginRun(of feed: String, in connection: any SQLConnection) throws
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
    /// ``readSQL(_:)``, for a driver whose reads open no transaction of their own.
    package func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        try await readSQL(body)
    }

    package func interruptAbandonedRuns(of feeds: [String]?, in connection: any SQLConnection) throws {
        try StoreRuns.interrupt(of: feeds, in: connection)
    }

    package func beginRun(of feed: String, in connection: any SQLConnection) throws {}
}
