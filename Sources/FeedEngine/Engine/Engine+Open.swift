import FeedKit
import FeedStore
import FeedStoreDrivers
import Foundation

extension Engine {
    /// Opens `config`'s store for running feeds: the one way a run starts, for the CLI, fixture
    /// replays and test harnesses alike.
    ///
    /// Opens the store for writing (``StoreFactory/writing(_:wait:silence:redactor:)``: an SQLite store
    /// is locked as a whole, and another run holding it is waited for up to `wait`; its system
    /// tables migrated), and marks the runs a killed process left `running` as `interrupted`.
    /// The engine, and every copy of it, holds the store (and its lock) until it is released.
    ///
    /// - Parameters:
    ///   - storePath: the store to use instead of the config's (fixture replays use a
    ///     temporary one).
    ///   - startDate: the moment every pass starts at (``startDate``), for replays.
    ///   - holder: what this process is to another that finds a SQLite store in use
    ///     (``StoreHolder``), recorded beside the store once the lock is taken.
    /// - Throws: ``StoreError`` "store in use" when the wait runs out, or when the store cannot
    ///   be opened.
    public static func open(
        _ config: FeedsConfig, fetcher: any Fetching = StandardFetcher(), storePath: String? = nil,
        wait: FeedDuration = .seconds(30), offline: Bool = false, startDate: Date? = nil, deliversOutbox: Bool = true,
        holder: StoreHolder = StoreHolder(kind: .run)
    ) async throws -> Engine {
        let location = storePath.map { StoreLocation($0) } ?? config.storeLocation
        // A worker paused or cut off from a shared store gives its feeds up after half its
        // lease, before the other workers may claim them (the lease's end).
        let silence = FeedDuration(milliseconds: config.lease.milliseconds / 2)
        let store = try StoreFactory.writing(location, wait: wait, silence: silence, redactor: config.redactor)
        if let path = location.filePath {
            var holder = holder
            holder.since = Timestamp.string(Date())
            holder.record(forStore: path)
        }
        do {
            try await store.markInterruptedRuns()
        } catch {
            if let path = location.filePath { StoreHolder.forget(forStore: path) }
            throw error
        }
        var engine = Engine(
            config: config, store: store, fetcher: fetcher, offline: offline, startDate: startDate,
            deliversOutbox: deliversOutbox)
        engine.wait = wait
        return engine
    }
}
