import FeedKit

/// Opening the store a config names, for the commands that read it.
extension FeedsConfig {
    /// The config's PostgreSQL store, connected (its schema created or brought up to date when
    /// needed); `nil` when the store is an SQLite file.
    ///
    /// - Throws: ``StoreError`` naming the server without its password.
    func postgresStore() throws -> PostgresStore? {
        guard let postgres else { return nil }
        do {
            return try PostgresStore(url: postgres.url, schema: postgres.schema)
        } catch {
            throw StoreError(path: storeDescription, message: redactor.redact(error.message))
        }
    }

    /// The rows of the config's store, for reading: the SQLite file (which must exist) or the
    /// PostgreSQL schema.
    public func storedRows() throws -> any StoredRows {
        try postgresStore() ?? EntityStore(readingAt: storePath)
    }

    /// The run history of the config's store, opened for reading: the SQLite file (which must
    /// exist) or the PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func history() throws -> any StoreHistory {
        try postgresStore() ?? EntityStore(readingAt: storePath)
    }

    /// SQL on the tables of the config's store (``StoreSQL``): the SQLite file (which must
    /// exist), read-only, or the PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storeSQL() throws -> any StoreSQL {
        try postgresStore() ?? EntityStore(readingAt: storePath)
    }

    /// The response cache of the config's store, for reading (tests and tools).
    package func responseCache() throws -> any ResponseCacheReading {
        try postgresStore() ?? EntityStore(readingAt: storePath)
    }

    /// The entities the config's store holds, by name, with the schemas their feeds declared.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storedSchemas() throws -> [String: EntitySchema] {
        if let store = try postgresStore() { return try store.schemas() }
        return try EntityStore(readingAt: storePath).schemas()
    }
}
