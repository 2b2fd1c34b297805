import FeedKit
import Foundation

/// One HTTP exchange for ``CurlHTTPClient``: what to send, and the limits that apply to it.
///
/// Redirects are followed as ``redirects`` says (up to ``maxRedirects``; see
/// ``RedirectPolicy`` for what a hop to another host leaves out), compressed bodies (gzip,
/// deflate) are decoded, and only `http` and `https` URLs are accepted, for the first request
/// and redirects alike.
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
    /// Which redirects are followed.
    public var redirects: RedirectPolicy
    /// The request's secrets: a header holding one is not sent to another host, and a redirect
    /// whose URL holds one is not followed there.
    public var redactor: Redactor
    /// The limit on the decoded body; a larger body aborts the transfer with
    /// ``HTTPClientError/Kind/tooLarge(limit:)``.
    public var maxResponseBytes: Int

    public init(
        url: String, method: String = "GET", headers: [HTTPHeader] = [], body: Data? = nil,
        timeout: FeedDuration = .seconds(30), connectTimeout: FeedDuration = .seconds(10), maxRedirects: Int = 5,
        maxResponseBytes: Int = 50 * 1024 * 1024, redirects: RedirectPolicy = .any, redactor: Redactor = Redactor()
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxRedirects = maxRedirects
        self.maxResponseBytes = maxResponseBytes
        self.redirects = redirects
        self.redactor = redactor
    }

    /// The names of the headers (lowercased) that are credentials: never sent to another host.
    var credentialHeaders: Set<String> {
        var names: Set<String> = ["authorization", "proxy-authorization", "cookie"]
        for header in headers where redactor.redact(header.value) != header.value {
            names.insert(header.name.lowercased())
        }
        return names
    }
}
