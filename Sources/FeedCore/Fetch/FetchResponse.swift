import Foundation

/// A response as the engine hands it to an adapter.
public struct FetchResponse: Sendable {
    /// Where the body came from.
    public enum Origin: Sendable, Hashable {
        /// Downloaded now.
        case network
        /// A local file.
        case file
        /// The server answered 304 Not Modified; the body is the cached one.
        case notModified
        /// Served from the cache without a request, because it is younger than `max_age`.
        case fresh
        /// Served from the cache because the request failed (or the run is `--offline`);
        /// `age` is how old the cached response is, in seconds.
        case stale(age: TimeInterval)
    }

    /// The request's URL with secrets replaced by `***`, for messages and reports.
    public var url: String
    public var status: Int
    /// Header values by lowercased name (the last one wins for repeated headers).
    public var headers: [String: String]
    public var body: Data
    public var origin: Origin
    /// How many network attempts were made (0 for files and fresh cache hits).
    public var attempts: Int
    /// Bytes received over the network for this response (0 when served from cache or file).
    public var bytesReceived: Int
    /// The entry to store in `_http_cache` when the feed's pass commits, if any.
    public var cacheUpdate: CachedResponse?
    /// Whether `body` was left out (it is empty), as the request's
    /// ``FetchRequest/omitsUnchangedBody`` asked for an unchanged response.
    public var bodyIsOmitted = false

    public init(
        url: String, status: Int, headers: [String: String] = [:], body: Data, origin: Origin,
        attempts: Int = 0, bytesReceived: Int = 0, cacheUpdate: CachedResponse? = nil
    ) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.origin = origin
        self.attempts = attempts
        self.bytesReceived = bytesReceived
        self.cacheUpdate = cacheUpdate
    }

    /// Whether the body is the same one the cache already held (304, or fresh within `max_age`).
    public var isUnchangedFromCache: Bool {
        switch origin {
        case .notModified, .fresh: true
        case .network, .file, .stale: false
        }
    }

    /// Whether the body came from the cache because the network failed.
    public var isStale: Bool {
        if case .stale = origin { return true }
        return false
    }
}

/// A response kept in `_http_cache`: the last good response to one request.
public struct CachedResponse: Sendable, Hashable {
    /// A hash of the method, the real URL and the body, so no secret is stored in the key.
    public var key: String
    /// The URL with secrets replaced by `***`.
    public var url: String
    public var status: Int
    public var headers: [String: String]
    public var etag: String?
    public var lastModified: String?
    public var fetchedAt: Date
    public var body: Data
    /// Whether `body` is the one the cache already holds (a 304), so storing the entry only
    /// refreshes its time and validators instead of rewriting the body.
    public var bodyIsCached: Bool
    /// Whether `body` was not read from the cache (it is empty): see
    /// ``ResponseCacheReading/cachedResponse(forKey:includingBody:)``.
    public var bodyIsOmitted = false

    public init(
        key: String, url: String, status: Int, headers: [String: String], etag: String?, lastModified: String?,
        fetchedAt: Date, body: Data, bodyIsCached: Bool = false
    ) {
        self.key = key
        self.url = url
        self.status = status
        self.headers = headers
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.body = body
        self.bodyIsCached = bodyIsCached
    }
}

/// Read access to `_http_cache`.
public protocol ResponseCacheReading: Sendable {
    /// The cached response for `key`, or `nil`. Without `includingBody`, its body is left empty
    /// and ``CachedResponse/bodyIsOmitted`` set, which spares reading (and inflating) it.
    func cachedResponse(forKey key: String, includingBody: Bool) throws -> CachedResponse?
}

extension ResponseCacheReading {
    /// The cached response for `key`, body included, or `nil`.
    public func cachedResponse(forKey key: String) throws -> CachedResponse? {
        try cachedResponse(forKey: key, includingBody: true)
    }
}
