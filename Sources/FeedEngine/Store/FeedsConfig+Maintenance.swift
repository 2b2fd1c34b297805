import FeedKit
import FeedStore
import FeedStoreDrivers

/// What tests do to a config's store outside any pass (FeedTestSupport's harness), through
/// ``StoreFactory``: the engine's users never name a driver.
extension FeedsConfig {
    /// Runs `sql`, which may change the config's store, outside any pass: for tests that damage
    /// or age what a pass left. An SQLite store waits up to `wait` for a pass still closing it.
    ///
    /// - Throws: ``StoreError`` naming the store when a statement fails.
    package func execute(onStore sql: String, wait: FeedDuration = .seconds(60)) async throws {
        try await StoreFactory.execute(sql, at: storeLocation, wait: wait, redactor: redactor)
    }

    /// Drops the config's schema on a PostgreSQL server with everything in it (a test's
    /// throwaway store); an SQLite store is left as it is.
    ///
    /// - Throws: ``StoreError`` when the server cannot be reached or refuses the statement.
    package func dropStoreSchema() throws {
        try StoreFactory.dropSchema(of: storeLocation, redactor: redactor)
    }
}
