import FeedKit
import Synchronization

/// `_http_cache` as one pass reads it: the entries its feed stored, without their bodies, read
/// in one query when the first is asked for; an entry with its body, or one the feed did not
/// store, comes from the store as it is asked for.
///
/// A pass of a paged feed asks for an entry a page, mostly without the body (a page the server
/// confirms unchanged is not read again): one query instead of one a page. What the pass itself
/// stores is not seen either way, as it is committed with the pass.
final class PassResponseCache: ResponseCacheReading {
    private let store: any FeedResponseCacheReading
    private let feed: String
    private let entries = Mutex<[String: CachedResponse]?>(nil)

    init(store: any FeedResponseCacheReading, feed: String) {
        self.store = store
        self.feed = feed
    }

    func cachedResponse(forKey key: String, includingBody: Bool) throws -> CachedResponse? {
        guard !includingBody else { return try store.cachedResponse(forKey: key, includingBody: true) }
        if let entry = try feedEntries()[key] { return entry }
        // Another feed may have stored the same request last.
        return try store.cachedResponse(forKey: key, includingBody: false)
    }

    /// The feed's entries, read on first use; pages asking at the same moment wait for the one
    /// query rather than each making it.
    private func feedEntries() throws -> [String: CachedResponse] {
        try entries.withLock { entries in
            if let entries { return entries }
            let loaded = try store.cachedResponses(feed: feed)
            entries = loaded
            return loaded
        }
    }
}
