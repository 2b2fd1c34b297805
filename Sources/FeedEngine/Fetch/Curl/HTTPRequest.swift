import FeedKit
import Foundation

/// One HTTP exchange for ``CurlHTTPClient``: what to send, and the limits that apply to it.
///
/// Redirects are followed (up to ``maxRedirects``), compressed bodies (gzip, deflate) are
/// decoded, and only `http` and `https` URLs are accepted, for the first request and redirects alike.
public struct HTTPRequest: Sendable, Hashable {
    /// An absolute `http://` or `https://` URL.
    public var url: String
    public var method: String
    /// Header names and values, sent in order. Line breaks in values are removed.
    public var headers: [HTTPHeader]
    public var body: Data?
    /// The most time the whole exchange may take, from connecting to the last byte, redirects included.
    public var timeout: FeedDuration
    /// The most time establishing one connection may take.
    public var connectTimeout: FeedDuration
    public var maxRedirects: Int
    /// The limit on the decoded body; a larger body aborts the transfer with
    /// ``HTTPClientError/Kind/tooLarge(limit:)``.
    public var maxResponseBytes: Int

    public init(
        url: String, method: String = "GET", headers: [HTTPHeader] = [], body: Data? = nil,
        timeout: FeedDuration = .seconds(30), connectTimeout: FeedDuration = .seconds(10), maxRedirects: Int = 5,
        maxResponseBytes: Int = 50 * 1024 * 1024
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxRedirects = maxRedirects
        self.maxResponseBytes = maxResponseBytes
    }
}
