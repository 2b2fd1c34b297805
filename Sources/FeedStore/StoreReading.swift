import FeedKit
import Foundation

/// Everything a store is asked to read, whichever database holds it: the rows (``StoredRows``,
/// what adapters and pricing see), the run history and rejects, the feeds' state and cached
/// responses, the worker's schedule, SQL for tools, and the snapshot an export reads. A driver
/// opened by ``StoreFactory/reading(_:redactor:)``, or the one the engine writes with
/// (``StoreDriver``).
///
/// The reads that are the same on every database are written once, on the store's connections
/// (``readSQL(_:)``), in extensions named for their tables (`StoreRuns`, `StoreRejects`,
/// `StoreOutbox`, `StoreResponseCache`, `StoreSchemas`...); the requirements here are the reads
/// a driver makes its own way.
///
/// Every read is `async`: each driver runs it on its own threads (SQLite on GRDB's reader pool,
/// PostgreSQL on its read connection's thread), never blocking Swift's cooperative pool, so a
/// slow statement delays only its caller.
package protocol StoreReading: StoredRows, Sendable {
    // The primitives the reads written once use (as GRDB's `DatabaseReader`'s): connections
    // on the driver's threads, never on Swift's cooperative pool.

    /// The SQL that differs from one database to the other.
    var dialect: any SQLDialect { get }
    /// What the database does beyond its dialect's SQL.
    var capabilities: StoreCapabilities { get }
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

    // What each driver reads its own way.

    /// The store, for messages: a file path or a server URL without its password.
    var location: String { get }
    /// Credentials set aside beside the store while a pass holds its one writer, read in place
    /// of the stored ones (``StoreDriver/setAsideCredentials(_:feed:)``); `nil` for a store
    /// whose passes write on connections of their own.
    var credentialJournal: CredentialJournal? { get }
    /// Runs a person's `SELECT` or `WITH` statement (serve's SQL page) read-only, on a
    /// connection of its own and a thread of its own, under the request's time and row limits,
    /// without the system tables ``ReadOnlySQLPolicy`` hides.
    func runReadOnly(_ request: ReadOnlySQLRequest) async throws(ReadOnlySQLError) -> ReadOnlySQLResult
}

extension StoreReading {
    /// ``readSQL(_:)``, for a driver whose reads open no transaction of their own.
    package func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        try await readSQL(body)
    }

    /// Runs `sql` with `arguments` bound to its parameters and returns each row as column name
    /// to value; an empty array for a statement that returns no rows.
    ///
    /// The statement is the database's own SQL; parameters are written `$1`, `$2`... (both
    /// databases read them; SQLite binds them in order of first use). Values come back as
    /// ``SQLConnection/namedRows(_:_:)`` reads them, the same on both stores.
    package func query(_ sql: String, arguments: [FieldValue] = []) async throws -> [[String: FieldValue]] {
        try await readSQL { connection in try connection.namedRows(sql, arguments) }
    }

    /// The runs of `feed` (or of every feed), newest first, at most `limit` of them.
    package func runs(feed: String?, limit: Int) async throws -> [RunRecord] {
        try await runs(feed: feed, before: nil, limit: limit)
    }
}
