import FeedKit

/// Why ``CurlHTTPClient`` got no response.
///
/// The message in ``Kind/transport(_:)`` is libcurl's and may name the URL's host; callers that
/// show it must redact it (``StandardFetcher`` does).
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in the terms ``FetchError`` uses.
    public enum Kind: Sendable, Hashable {
        /// The exchange took longer than its timeout (connecting, or in total).
        case timeout
        /// More redirects than the request allows.
        case tooManyRedirects
        /// A redirect the request's ``RedirectPolicy`` does not follow: its target (which may
        /// hold a secret: redact it before showing it) and why.
        case redirectRefused(to: String, reason: String)
        /// The decoded body was larger than the limit, in bytes.
        case tooLarge(limit: Int)
        /// Anything else: refused or reset connection, DNS, TLS, a body shorter than declared...
        case transport(String)
        /// The task waiting for the transfer was cancelled (an interrupt); the transfer was aborted.
        case cancelled
    }

    public var kind: Kind
    /// libcurl's `CURLcode`, for diagnostics.
    public var curlCode: Int
    /// The URL of the exchange that failed: after redirects, the last hop's (which may hold a
    /// secret: redact it before showing it).
    public var url: String?

    public init(_ kind: Kind, curlCode: Int = 0) {
        self.kind = kind
        self.curlCode = curlCode
    }

    /// Whether trying again might succeed (timeouts and connection failures).
    public var isTransient: Bool {
        switch kind {
        case .timeout, .transport: true
        case .tooManyRedirects, .redirectRefused, .tooLarge, .cancelled: false
        }
    }

    public var description: String {
        switch kind {
        case .timeout: "timed out"
        case .tooManyRedirects: "too many redirects"
        case .redirectRefused(let target, let reason): "redirect to \(target) not followed: \(reason)"
        case .tooLarge(let limit): "response larger than the limit of \(limit) bytes"
        case .transport(let message): "connection failed: \(message)"
        case .cancelled: "cancelled"
        }
    }
}
