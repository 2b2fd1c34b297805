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
    /// The HTTP status; for a file, 200 (or 404 when it is missing and the request accepts that).
    public var status: Int
    /// Header values by lowercased name (the last one wins for repeated headers).
    public var headers: [String: String]
    /// The body; empty when ``bodyIsOmitted``.
    public var body: Data
    /// Whether the body was downloaded, read from a file or served from the cache, and why.
    public var origin: Origin
    /// How many network attempts were made (0 for files and fresh cache hits).
    public var attempts: Int
    /// Bytes received over the network for this response (0 when served from cache or file).
    public var bytesReceived: Int
    /// The entry to store in the response cache when the feed's pass commits, if any.
    package var cacheUpdate: CachedResponse?
    /// Whether `body` was left out (it is empty), as the request's
    /// ``FetchRequest/omitsUnchangedBody`` asked for an unchanged response.
    public var bodyIsOmitted = false
    /// The response's 1-based position among the responses of its pass, in the order they were
    /// requested (set by ``FeedPass/fetch(_:)``; `nil` for a response made outside a pass).
    public var page: Int?

    /// A response made by hand, for an adapter's tests of its parse and map functions.
    public init(
        url: String, status: Int, headers: [String: String] = [:], body: Data, origin: Origin,
        attempts: Int = 0, bytesReceived: Int = 0
    ) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.origin = origin
        self.attempts = attempts
        self.bytesReceived = bytesReceived
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
