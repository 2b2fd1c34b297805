import Foundation

/// A response kept in the response cache: the last good response to one request. The engine's
/// fetcher and store exchange it; adapters see only ``FetchResponse``.
package struct CachedResponse: Sendable, Hashable {
    /// ``FetchRequest/cacheKey``: a hash of the method, the real URL and the body.
    package var key: String
    /// The URL with secrets replaced by `***`.
    package var url: String
    package var status: Int
    package var headers: [String: String]
    package var etag: String?
    package var lastModified: String?
    package var fetchedAt: Date
    /// The body, or `nil` for the body the store already holds and that is not carried here:
    /// an entry read without its body, or one that only refreshes the time and validators of
    /// the stored entry (a 304).
    package var body: Data?

    package init(
        key: String, url: String, status: Int, headers: [String: String], etag: String?, lastModified: String?,
        fetchedAt: Date, body: Data?
    ) {
        self.key = key
        self.url = url
        self.status = status
        self.headers = headers
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.body = body
    }
}
