import Foundation

/// A request an adapter asks the engine to perform.
///
/// `url` is an absolute `http(s)://` URL, a `file://` URL, or a path, which is read relative to
/// the config file's folder. Fixture-backed and live feeds differ only in this string.
public struct FetchRequest: Sendable, Hashable {
    /// The URL as given: http(s), `file://` or a path relative to the config file's folder; secrets included.
    public var url: String
    /// The HTTP method, `GET` unless the adapter says otherwise.
    public var method: String
    /// Header names and values, in order.
    public var headers: [HTTPHeader]
    /// The request's body, for a `POST` or `PUT`; `nil` sends none.
    public var body: Data?
    /// Within this age a cached response is used and no request is made.
    public var maxAge: FeedDuration?
    /// When `true`, a 404 (or a missing file) is returned as a response instead of thrown.
    public var acceptsNotFound: Bool
    /// When `true`, a 401 Unauthorized is returned as a response instead of thrown, for callers
    /// that renew a credential and send the request again.
    public var acceptsUnauthorized = false
    /// Whether the response is kept in `_http_cache` (for conditional requests and offline use).
    public var cacheable: Bool
    /// When `true`, a response unchanged since the cached one (304 Not Modified, or fresh within
    /// `maxAge`) comes with an empty body and ``FetchResponse/bodyIsOmitted`` set, and the cached
    /// body is not even read: for callers that remember what it said. A stale response (the
    /// network failed) always carries its body.
    public var omitsUnchangedBody = false
    /// Failure statuses (4xx, 5xx) returned as a response instead of thrown, and not retried:
    /// for callers to whom such a status has a meaning, such as "no records here".
    public var acceptedStatuses: Set<Int> = []

    /// A request with everything spelled out; by default a cacheable `GET` with no body, which throws on a 404.
    public init(
        url: String, method: String = "GET", headers: [HTTPHeader] = [], body: Data? = nil,
        maxAge: FeedDuration? = nil, acceptsNotFound: Bool = false, cacheable: Bool = true
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.maxAge = maxAge
        self.acceptsNotFound = acceptsNotFound
        self.cacheable = cacheable
    }

    /// A request for `url` with `query` appended, each name and value percent-encoded.
    public init(url: String, query: [(String, String)], maxAge: FeedDuration? = nil) {
        self.init(url: URLQuery.appending(query, to: url), maxAge: maxAge)
    }

    /// Whether the request goes to the network (as opposed to a local file).
    public var isRemote: Bool { Self.isRemote(url) }

    /// Whether `url` is an `http://` or `https://` URL (in any case), as opposed to a path or a
    /// `file://` URL read from disk.
    public static func isRemote(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}

/// One HTTP header.
public struct HTTPHeader: Sendable, Hashable, Codable {
    /// The header's name, as sent.
    public var name: String
    /// The header's value; one that holds a secret is redacted wherever the request is shown.
    public var value: String

    /// The header `name: value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// Percent-encoding of query strings (RFC 3986 unreserved characters stay as they are).
public enum URLQuery {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// `value` percent-encoded for use as a query name or value.
    public static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// `url` with `query` appended after `?` or `&`.
    public static func appending(_ query: [(String, String)], to url: String) -> String {
        guard !query.isEmpty else { return url }
        let encoded = query.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        return url + (url.contains("?") ? "&" : "?") + encoded
    }
}
