import FeedKit
import Foundation

/// Opening the store a config names, through ``StoreFactory``, for the commands that read it.
extension FeedsConfig {
    /// Where the config's store is: `store:` (and, for a server, `schema:`).
    public var storeLocation: StoreLocation { postgres.map(StoreLocation.postgres) ?? .file(storePath) }

    /// The config's store, opened for reading: nothing is created, so a role that may only read
    /// a PostgreSQL schema can use it.
    ///
    /// - Throws: ``StoreError`` naming the store (a server without its password, the message
    ///   redacted) when there is no SQLite store yet, the server cannot be reached or the schema
    ///   holds no store of this Feedwork's version.
    func readingStore() throws -> any StoreReading { try StoreFactory.reading(storeLocation, redactor: redactor) }

    /// Whether the config's store exists: the SQLite file, or a Feedwork store in the
    /// PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when the server cannot be reached.
    public func storeExists() throws -> Bool { try StoreFactory.exists(storeLocation, redactor: redactor) }

    /// The rows of the config's store, for reading: the SQLite file (which must exist) or the
    /// PostgreSQL schema.
    public func storedRows() throws -> any StoredRows { try readingStore() }

    /// The run history of the config's store, opened for reading: the SQLite file (which must
    /// exist) or the PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func history() throws -> any StoreHistory { try readingStore() }

    /// SQL on the tables of the config's store (``StoreSQL``): the SQLite file (which must
    /// exist), read-only, or the PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storeSQL() throws -> any StoreSQL { try readingStore() }

    /// The response cache of the config's store, for reading (tests and tools).
    package func responseCache() throws -> any FeedResponseCacheReading { try readingStore() }

    /// The entities the config's store holds, by name, with the schemas their feeds declared.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storedSchemas() throws -> [String: EntitySchema] { try readingStore().schemas() }
}
