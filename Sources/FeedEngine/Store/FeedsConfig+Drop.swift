import FeedKit
import FeedStore
import FeedStoreDrivers

extension FeedsConfig {
    /// Drops an entity or a feed from the config's store (`feedwork drop`), in one transaction:
    /// the store is opened for writing (an SQLite store locked as a whole, waiting up to `wait`
    /// for a run that holds it) and closed again.
    ///
    /// - Returns: what was removed, for the user.
    /// - Throws: ``StoreError`` when there is no such entity or feed in the store, another
    ///   entity's enforced relation points at the entity, or the store is in use all along.
    public func drop(_ target: DropTarget, wait: FeedDuration = .seconds(30)) async throws -> String {
        let store = try StoreFactory.writing(storeLocation, wait: wait, redactor: redactor)
        do {
            let dropped = try await store.drop(target)
            try await store.close()
            return dropped
        } catch {
            try? await store.close()
            throw error
        }
    }
}
