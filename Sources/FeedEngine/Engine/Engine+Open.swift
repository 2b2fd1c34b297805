import FeedKit
import Foundation

extension Engine {
    /// Opens `config`'s store for running feeds: the one way a run starts, for the CLI, fixture
    /// replays and test harnesses alike.
    ///
    /// Takes the store's lock (another run holds it: waits up to `wait`), opens the store (its
    /// system tables migrated), and marks the runs a killed process left `running` as
    /// `interrupted`. The engine, and every copy of it, holds the lock until it is released.
    ///
    /// - Parameters:
    ///   - storePath: the store to use instead of the config's (fixture replays use a
    ///     temporary one).
    ///   - startDate: the moment every pass starts at (``startDate``), for replays.
    /// - Throws: ``StoreError`` "store in use" when the wait runs out, or when the store cannot
    ///   be opened.
    public static func open(
        _ config: FeedsConfig, fetcher: any Fetching = StandardFetcher(), storePath: String? = nil,
        wait: FeedDuration = .seconds(30), offline: Bool = false, startDate: Date? = nil, deliversOutbox: Bool = true
    ) async throws -> Engine {
        if storePath == nil, let store = try config.postgresStore(forWriting: true) {
            // Many processes share the database: each pass takes its feed's lease instead of a
            // lock on the whole store.
            try await store.markInterruptedRuns()
            var engine = Engine(
                config: config, store: store, fetcher: fetcher, offline: offline, startDate: startDate,
                deliversOutbox: deliversOutbox)
            engine.wait = wait
            return engine
        }
        let path = storePath ?? config.storePath
        let lock = try SQLiteStoreLock(storePath: path, wait: wait)
        let store = try SQLiteStore(path: path)
        try await store.markInterruptedRuns()
        var engine = Engine(
            config: config, store: store, fetcher: fetcher, offline: offline, startDate: startDate,
            deliversOutbox: deliversOutbox)
        engine.lock = lock
        engine.wait = wait
        return engine
    }
}
