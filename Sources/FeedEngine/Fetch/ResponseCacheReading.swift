import FeedKit
import FeedStore

/// Read access to `_http_cache`, as a fetch asks for it: the store's
/// (``StoreReading/cachedResponse(forKey:includingBody:)``) through a pass's
/// ``PassResponseCache``, or one kept in memory.
package protocol ResponseCacheReading: Sendable {
    /// The cached response for `key`, or `nil`. Without `includingBody`, its body is left out
    /// (`nil`), which spares reading (and inflating) it.
    func cachedResponse(forKey key: String, includingBody: Bool) async throws -> CachedResponse?
}
