import FeedKit
import Foundation

/// A store, over the driver of the database that holds it: what the engine reads and writes
/// (``StoreReading``'s reads and the writes of its extensions: runs, state, the schedule, the
/// outbox, media, drops), each written once for every driver on the driver's primitives
/// (``StoreDriver``). ``StoreFactory`` opens one.
package struct Store: StoreReading {
    package let driver: any StoreDriver

    /// The store over `driver`.
    package init(_ driver: any StoreDriver) { self.driver = driver }
}

extension Store {
    /// The store's file, when the store is one (``StoreDriver/file``).
    package var file: String? { driver.file }
    /// Whether this process holds the store's exclusive lock (``StoreDriver/holdsExclusiveLock``).
    package var holdsExclusiveLock: Bool { driver.holdsExclusiveLock }

    /// Runs `body` in a write transaction of its own (``StoreDriver/writeSQL(_:)``).
    package func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await driver.writeSQL(body)
    }

    /// The transaction of the pass `run` of `feed` (``StoreDriver/passTransaction(feed:run:stamp:bindings:)``).
    package func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction
    {
        driver.passTransaction(feed: feed, run: run, stamp: stamp, bindings: bindings)
    }

    /// Takes the lease of `feed`'s passes (``StoreDriver/lease(of:wait:)``).
    package func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject? {
        try await driver.lease(of: feed, wait: wait)
    }

    /// Closes the store's connections (``StoreDriver/close()``).
    package func close() async throws { try await driver.close() }
}
