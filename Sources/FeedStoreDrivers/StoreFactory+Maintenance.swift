import FeedKit
import FeedStore
import FeedStorePostgres
import FeedStoreSQLite

/// What is done to a store outside any pass, for the tests that run feeds into a store of their
/// own (FeedTestSupport's harness, through FeedEngine): a statement that changes the store, and
/// removing a server's throwaway schema.
extension StoreFactory {
    /// Runs `sql`, which may change the store at `location`, outside any pass and on a
    /// connection of its own that checks nothing first (so a test can age a store into one this
    /// Feedwork refuses, and back): for tests that damage or age what a pass left. An SQLite
    /// file's connection waits up to `wait` for its lock; a server's takes no lease.
    ///
    /// - Throws: ``StoreError`` naming the store when a statement fails or the server cannot be
    ///   reached (redacted with `redactor`).
    package static func execute(
        _ sql: String, at location: StoreLocation, wait: FeedDuration, redactor: Redactor
    ) async throws {
        switch Driver(location.store) {
        case .sqlite:
            try await SQLiteStore.execute(sql, inStoreAt: location.store, wait: wait)
        case .postgres:
            do {
                try await PostgresStore.execute(sql, schema: schema(of: location), url: location.store)
            } catch let error as PostgresError {
                throw StoreError(path: location.description, message: redactor.redact(error.message))
            }
        }
    }

    /// Drops the schema of the server's store at `location` with everything in it; a store in a
    /// file is left as it is (its folder's owner removes it).
    ///
    /// - Throws: ``StoreError`` when the server cannot be reached or refuses the statement
    ///   (redacted with `redactor`).
    package static func dropSchema(of location: StoreLocation, redactor: Redactor) throws {
        guard case .postgres = Driver(location.store) else { return }
        do {
            try PostgresStore.dropSchema(schema(of: location), url: location.store)
        } catch {
            throw StoreError(path: location.description, message: redactor.redact(error.message))
        }
    }
}
