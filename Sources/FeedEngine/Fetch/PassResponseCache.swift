import FeedKit
import FeedStore
import Synchronization

/// `_http_cache` as one pass reads it: the entries its feed stored, without their bodies, read
/// in one query when the first is asked for; an entry with its body, or one the feed did not
/// store, comes from the store as it is asked for.
///
/// A pass of a paged feed asks for an entry a page, mostly without the body (a page the server
/// confirms unchanged is not read again): one query instead of one a page. What the pass itself
/// stores is not seen either way, as it is committed with the pass.
final class PassResponseCache: ResponseCacheReading {
    /// Reads one entry from the store: by key, with or without its body.
    typealias ReadEntry = @Sendable (_ key: String, _ includingBody: Bool) async throws -> CachedResponse?
    /// Reads the feed's entries from the store, without their bodies.
    typealias ReadFeedEntries = @Sendable () async throws -> [String: CachedResponse]

    private let readEntry: ReadEntry
    private let readFeedEntries: ReadFeedEntries
    /// The one read of the feed's entries, started by the first page that asks.
    private let entries = Mutex<Task<[String: CachedResponse], any Error>?>(nil)

    /// The cache of `feed`'s pass on `store`.
    convenience init(store: any StoreReading, feed: String) {
        self.init(
            entry: { try await store.cachedResponse(forKey: $0, includingBody: $1) },
            feedEntries: { try await store.cachedResponses(feed: feed) })
    }

    /// The cache reading entries with `entry` and the feed's with `feedEntries`.
    init(entry: @escaping ReadEntry, feedEntries: @escaping ReadFeedEntries) {
        readEntry = entry
        readFeedEntries = feedEntries
    }

    func cachedResponse(forKey key: String, includingBody: Bool) async throws -> CachedResponse? {
        guard !includingBody else { return try await readEntry(key, true) }
        if let entry = try await feedEntries()[key] { return entry }
        // Another feed may have stored the same request last.
        return try await readEntry(key, false)
    }

    /// The feed's entries, read on first use; pages asking at the same moment wait for the one
    /// query rather than each making it.
    private func feedEntries() async throws -> [String: CachedResponse] {
        let read = entries.withLock { [readFeedEntries] entries in
            if let entries { return entries }
            let started = Task { try await readFeedEntries() }
            entries = started
            return started
        }
        return try await read.value
    }
}
