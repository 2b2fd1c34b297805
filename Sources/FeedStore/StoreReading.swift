import FeedKit
import Foundation

/// Everything a store is asked to read, whichever database holds it: the rows (``StoredRows``,
/// what adapters and pricing see), the run history and rejects, the feeds' state and cached
/// responses, the worker's schedule, SQL for tools, and the snapshot an export reads: what a
/// store opened by ``StoreFactory/reading(_:redactor:)`` offers, and the ``Store`` the engine
/// writes with.
///
/// The reads are written once, on the driver's connections (``StoreDriver/readSQL(_:)``), in
/// extensions named for their tables (`StoreRuns`, `StoreRejects`, `StoreOutbox`,
/// `StoreResponseCache`, `StoreSchemas`...).
package protocol StoreReading: StoredRows, Sendable {
    /// The database under the store.
    var driver: any StoreDriver { get }
}

extension StoreReading {
    /// The store, for messages: a file path or a server URL without its password.
    package var location: String { driver.location }
    /// The SQL that differs from one database to the other.
    package var dialect: any SQLDialect { driver.dialect }
    /// What the database does beyond its dialect's SQL.
    package var capabilities: StoreCapabilities { driver.capabilities }
    /// Credentials set aside beside the store (``StoreDriver/credentialJournal``).
    package var credentialJournal: CredentialJournal? { driver.credentialJournal }

    /// Runs `body` on a read connection (``StoreDriver/readSQL(_:)``).
    package func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await driver.readSQL(body)
    }

    /// Runs `body`, which runs one statement, on a read connection
    /// (``StoreDriver/readOneSQL(_:)``).
    package func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        try await driver.readOneSQL(body)
    }

    /// Runs `body` on one consistent, read-only snapshot of the store
    /// (``StoreDriver/snapshotSQL(_:)``).
    package func snapshotSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        try await driver.snapshotSQL(body)
    }

    /// Runs a person's read-only statement under the request's limits, on a thread of its own
    /// (``ReadOnlySQLThread``): scanned in the dialect's flavor (``ReadOnlySQLStatement``), its
    /// parameters given their values, and run by the driver
    /// (``StoreDriver/runReadOnly(_:values:_:)``).
    ///
    /// - Throws: ``ReadOnlySQLError``: the statement is refused, a parameter has no value, the
    ///   database fails it, or the time limit passes.
    package func runReadOnly(_ request: ReadOnlySQLRequest) async throws(ReadOnlySQLError) -> ReadOnlySQLResult {
        let driver = self.driver
        return try await ReadOnlySQLThread.run { () throws(ReadOnlySQLError) -> ReadOnlySQLResult in
            let statement = try ReadOnlySQLStatement(request.statement, flavor: driver.dialect.readOnlySQLFlavor)
            var values: [String] = []
            for name in statement.parameters {
                guard let value = request.parameters[name] else {
                    throw ReadOnlySQLError(.statement, "no value for the parameter :\(name)")
                }
                values.append(value)
            }
            return try driver.runReadOnly(statement, values: values, request)
        }
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
