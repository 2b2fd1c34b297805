import FeedKit
import FeedStore
import Synchronization

/// `_http_cache` as one pass reads it: the entries its feed stored, without their bodies, read
/// in one query when the first is asked for, with whether other feeds stored any; an entry with
/// its body, or one another feed stored, comes from the store as it is asked for.
///
/// A pass of a paged feed asks for an entry a page, mostly without the body (a page the server
/// confirms unchanged is not read again): one query instead of one a page. A key that neither
/// the feed nor any other feed stored is not looked for at all: a feed's first pass on a store
/// whose cache holds nothing of other feeds asks the store once, not once a page (each a round
/// trip to a PostgreSQL server before the page's request). What the pass itself stores is not
/// seen either way, as it is committed with the pass.
final class PassResponseCache: ResponseCacheReading {
    /// Reads one entry from the store: by key, with or without its body.
    typealias ReadEntry = @Sendable (_ key: String, _ includingBody: Bool) async throws -> CachedResponse?
    /// Reads the feed's entries from the store, without their bodies.
    typealias ReadFeedEntries = @Sendable () async throws -> [String: CachedResponse]
    /// Reads whether the store's cache holds entries of other feeds.
    typealias ReadOthersHold = @Sendable () async throws -> Bool

    /// The feed's entries, and whether other feeds stored any.
    private typealias Known = (entries: [String: CachedResponse], othersHold: Bool)

    private let readEntry: ReadEntry
    private let readFeedEntries: ReadFeedEntries
    private let readOthersHold: ReadOthersHold
    /// The one read of the feed's entries, started by the first page that asks.
    private let known = Mutex<Task<Known, any Error>?>(nil)

    /// The cache of `feed`'s pass on `store`.
    convenience init(store: any StoreReading, feed: String) {
        self.init(
            entry: { try await store.cachedResponse(forKey: $0, includingBody: $1) },
            feedEntries: { try await store.cachedResponses(feed: feed) },
            othersHold: { try await store.holdsCachedResponses(besides: feed) })
    }

    /// The cache reading entries with `entry`, the feed's with `feedEntries`, and whether other
    /// feeds stored any with `othersHold`.
    init(
        entry: @escaping ReadEntry, feedEntries: @escaping ReadFeedEntries, othersHold: @escaping ReadOthersHold
    ) {
        readEntry = entry
        readFeedEntries = feedEntries
        readOthersHold = othersHold
    }

    func cachedResponse(forKey key: String, includingBody: Bool) async throws -> CachedResponse? {
        let known = try await knownEntries()
        let entry = known.entries[key]
        // Neither this feed nor another stored it.
        if entry == nil, !known.othersHold { return nil }
        if includingBody { return try await readEntry(key, true) }
        if let entry { return entry }
        // Another feed may have stored the same request last.
        return try await readEntry(key, false)
    }

    /// The feed's entries, read on first use; pages asking at the same moment wait for the one
    /// read rather than each making it.
    private func knownEntries() async throws -> Known {
        let read = known.withLock { [readFeedEntries, readOthersHold] known in
            if let known { return known }
            let started = Task { (entries: try await readFeedEntries(), othersHold: try await readOthersHold()) }
            known = started
            return started
        }
        return try await read.value
    }
}
