import FeedKit

/// Read access to `_http_cache`.
package protocol ResponseCacheReading: Sendable {
    /// The cached response for `key`, or `nil`. Without `includingBody`, its body is left out
    /// (`nil`), which spares reading (and inflating) it.
    func cachedResponse(forKey key: String, includingBody: Bool) throws -> CachedResponse?
}

/// Read access to `_http_cache` by feed, for a pass to read all its feed's entries at once
/// (``PassResponseCache``).
package protocol FeedResponseCacheReading: ResponseCacheReading {
    /// The entries `feed` stored, by key, without their bodies.
    func cachedResponses(feed: String) throws -> [String: CachedResponse]
}

extension ResponseCacheReading {
    /// The cached response for `key`, body included, or `nil`.
    package func cachedResponse(forKey key: String) throws -> CachedResponse? {
        try cachedResponse(forKey: key, includingBody: true)
    }
}
