import FeedKit
import Foundation

/// Opening the store a config names, for the commands that read it.
extension FeedsConfig {
    /// The config's PostgreSQL store, connected; `nil` when the store is an SQLite file. For
    /// writing, its schema is created or brought up to date when needed; for reading, nothing
    /// is created, so a role that may only read the schema can use it.
    ///
    /// - Throws: ``StoreError`` naming the server without its password; for reading, also when
    ///   the schema holds no store of this Feedwork's version.
    func postgresStore(forWriting: Bool = false) throws -> PostgresStore? {
        guard let postgres else { return nil }
        do {
            return try PostgresStore(url: postgres.url, schema: postgres.schema, migrating: forWriting)
        } catch {
            throw StoreError(path: storeDescription, message: redactor.redact(error.message))
        }
    }

    /// Whether the config's store exists: the SQLite file, or a Feedwork store in the
    /// PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when the server cannot be reached.
    public func storeExists() throws -> Bool {
        guard let postgres else { return FileManager.default.fileExists(atPath: storePath) }
        do {
            let connection = try PostgresConnection(url: postgres.url)
            return try PostgresMigrations.storedVersion(connection, schema: postgres.schema) != nil
        } catch {
            throw StoreError(path: storeDescription, message: redactor.redact(error.message))
        }
    }

    /// The rows of the config's store, for reading: the SQLite file (which must exist) or the
    /// PostgreSQL schema.
    public func storedRows() throws -> any StoredRows {
        try postgresStore() ?? SQLiteStore(readingAt: storePath)
    }

    /// The run history of the config's store, opened for reading: the SQLite file (which must
    /// exist) or the PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func history() throws -> any StoreHistory {
        try postgresStore() ?? SQLiteStore(readingAt: storePath)
    }

    /// SQL on the tables of the config's store (``StoreSQL``): the SQLite file (which must
    /// exist), read-only, or the PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storeSQL() throws -> any StoreSQL {
        try postgresStore() ?? SQLiteStore(readingAt: storePath)
    }

    /// The response cache of the config's store, for reading (tests and tools).
    package func responseCache() throws -> any FeedResponseCacheReading {
        try postgresStore() ?? SQLiteStore(readingAt: storePath)
    }

    /// The entities the config's store holds, by name, with the schemas their feeds declared.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storedSchemas() throws -> [String: EntitySchema] {
        if let store = try postgresStore() { return try store.schemas() }
        return try SQLiteStore(readingAt: storePath).schemas()
    }
}
