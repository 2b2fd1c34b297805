import FeedKit
import FeedStore
import FeedStorePostgres
import FeedStoreSQLite
import Foundation

/// The one place that maps where a store is (``StoreLocation``) to the driver that opens it:
/// `FeedStoreSQLite` for a file, `FeedStorePostgres` for a server's schema. It makes the
/// locations and checks them with their driver's rules (`StoreFactory+Location.swift`). Nothing
/// else names a driver, so another driver is a folder beside those two and a case of ``Driver``.
package enum StoreFactory {
    /// The store at `location`, opened for running feeds, its system tables created or
    /// migrated.
    ///
    /// An SQLite store is locked as a whole first (another run holds it: waits up to `wait`),
    /// and holds its lock as long as the store is in use; on PostgreSQL, many processes share
    /// the database, and each pass takes its feed's lease instead (``StoreDriver/lease(of:wait:)``).
    ///
    /// - Parameter silence: how long a process may go silent (paused, cut off) while it holds a
    ///   feed of a server's store before the server gives the feed up for it, so that other
    ///   workers run it; `nil`, the driver's default.
    /// - Throws: ``StoreError`` "store in use" when the wait runs out, or when the store cannot
    ///   be opened; a server's errors are redacted with `redactor` and name it without its
    ///   password.
    package static func writing(
        _ location: StoreLocation, wait: FeedDuration, silence: FeedDuration? = nil, redactor: Redactor
    ) throws -> Store {
        switch Driver(location.store) {
        case .sqlite:
            let lock = try SQLiteStoreLock(storePath: location.store, wait: wait)
            return Store(try SQLiteStore(path: location.store, holding: lock))
        case .postgres:
            do {
                return Store(
                    try PostgresStore(
                        url: location.store, schema: schema(of: location), migrating: true,
                        silence: silence.map { .milliseconds($0.milliseconds) } ?? PostgresLiveness.defaultSilence))
            } catch {
                throw StoreError(path: location.description, message: redactor.redact(error.message))
            }
        }
    }

    /// The store at `location`, opened for reading: nothing is created, migrated or written, so
    /// a read-only file or a role that may only read the schema will do.
    ///
    /// - Throws: ``StoreError`` when the file cannot be read, the server cannot be reached or
    ///   the schema holds no store of this Feedwork's version (redacted with `redactor`).
    package static func reading(_ location: StoreLocation, redactor: Redactor) throws -> any StoreReading {
        switch Driver(location.store) {
        case .sqlite:
            return Store(try SQLiteStore(readingAt: location.store))
        case .postgres:
            do {
                return Store(try PostgresStore(url: location.store, schema: schema(of: location), migrating: false))
            } catch {
                throw StoreError(path: location.description, message: redactor.redact(error.message))
            }
        }
    }

    /// Whether there is a store at `location`: the file, or a Feedwork store in the schema.
    ///
    /// - Throws: ``StoreError`` when the server cannot be reached (redacted with `redactor`).
    package static func exists(_ location: StoreLocation, redactor: Redactor) throws -> Bool {
        switch Driver(location.store) {
        case .sqlite:
            return FileManager.default.fileExists(atPath: location.store)
        case .postgres:
            do {
                return try PostgresStore.exists(url: location.store, schema: schema(of: location))
            } catch {
                throw StoreError(path: location.description, message: redactor.redact(error.message))
            }
        }
    }

    /// The schema of a server's store at `location` (its driver's default when it gives none).
    static func schema(of location: StoreLocation) -> String {
        location.schema ?? PostgresURL.defaultSchema
    }
}
