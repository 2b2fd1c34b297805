import FeedKit
import FeedStore
import FeedStoreDrivers

extension StoreLocation {
    /// The store here, opened for reading through ``StoreFactory``: nothing is created, so a
    /// read-only file or a role that may only read the schema will do. ``FeedsConfig``'s
    /// `readingStore()` opens a config's store this way.
    ///
    /// - Throws: ``StoreError`` naming the store (a server without its password, the message
    ///   redacted with `redactor`) when there is no SQLite store here, the server cannot be
    ///   reached or the schema holds no store of this Feedwork's version.
    package func readingStore(redactor: Redactor = Redactor()) throws -> any StoreReading {
        try StoreFactory.reading(self, redactor: redactor)
    }
}
