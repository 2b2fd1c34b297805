import FeedKit
import Foundation
import Synchronization

/// A ``ResponseCacheReading`` kept in memory: the simplest cache, for tests and one-off runs.
///
/// Entries are added with ``store(_:)`` (the engine's real cache is `_http_cache` in the store,
/// written from each response's cache update in the feed's transaction). Safe to share between tasks.
package final class InMemoryResponseCache: ResponseCacheReading {
    private let entries: Mutex<[String: CachedResponse]>

    /// A cache holding `responses`, by their keys.
    package init(_ responses: [CachedResponse] = []) {
        entries = Mutex(Dictionary(responses.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last }))
    }

    /// The entry for `key`, body included, or `nil`.
    package func cachedResponse(forKey key: String) -> CachedResponse? {
        entries.withLock { $0[key] }
    }

    package func cachedResponse(forKey key: String, includingBody: Bool) -> CachedResponse? {
        guard var entry = entries.withLock({ $0[key] }) else { return nil }
        if !includingBody { entry.body = nil }
        return entry
    }

    /// Adds `response`, replacing any entry with the same key.
    package func store(_ response: CachedResponse) {
        entries.withLock { $0[response.key] = response }
    }

    /// Removes every entry.
    package func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// How many entries the cache holds.
    package var count: Int { entries.withLock { $0.count } }
}
