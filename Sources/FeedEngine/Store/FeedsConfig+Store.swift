import FeedKit
import FeedStore
import FeedStoreDrivers
import Foundation

/// Opening the store a config names, through ``StoreFactory``, for the commands that read it.
extension FeedsConfig {
    /// The config's store, opened for reading: nothing is created, so a role that may only read
    /// a PostgreSQL schema can use it.
    ///
    /// - Throws: ``StoreError`` naming the store (a server without its password, the message
    ///   redacted) when there is no SQLite store yet, the server cannot be reached or the schema
    ///   holds no store of this Feedwork's version.
    package func readingStore() throws -> any StoreReading {
        try storeLocation.readingStore(redactor: redactor)
    }

    /// Whether the config's store exists: the SQLite file, or a Feedwork store in the
    /// PostgreSQL schema.
    ///
    /// - Throws: ``StoreError`` when the server cannot be reached.
    public func storeExists() throws -> Bool { try StoreFactory.exists(storeLocation, redactor: redactor) }

    /// The entities the config's store holds, by name, with the schemas their feeds declared.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storedSchemas() async throws -> [String: EntitySchema] { try await readingStore().schemas() }

    /// The columns of the store's entities that their fields no longer declare, marked retired
    /// in `_entities` (``RetiredColumn``), by entity name; entities without any are left out.
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storedRetiredColumns() async throws -> [String: [RetiredColumn]] {
        try await RetiredColumn.marks(in: readingStore())
    }

    /// Both ``storedSchemas()`` and ``storedRetiredColumns()``, read through one opening of the
    /// store, which costs more than the two reads (an SQLite store opens two connections and
    /// checks its migrations).
    ///
    /// - Throws: ``StoreError`` when there is no SQLite store yet or the server cannot be reached.
    public func storedEntities() async throws -> (schemas: [String: EntitySchema], retired: [String: [RetiredColumn]]) {
        let store = try readingStore()
        return (try await store.schemas(), try await RetiredColumn.marks(in: store))
    }
}
