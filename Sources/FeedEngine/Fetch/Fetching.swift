import FeedKit
import Foundation
import Logging

/// Performs requests for a feed: the one seam between adapters and the outside world.
///
/// ``StandardFetcher`` goes to the network (libcurl) and the file system with retries, caching
/// and limits; the fixture replayer and recorder used by `feedwork test` and `feedwork record`
/// are other conformances.
public protocol Fetching: Sendable {
    /// Performs `request` and returns its response.
    ///
    /// - Throws: ``FetchError`` when the request fails after its retries and no cached response
    ///   can stand in for it, or when the status is not 2xx (404 allowed by
    ///   ``FetchRequest/acceptsNotFound``).
    func fetch(_ request: FetchRequest, context: FetchContext) async throws -> FetchResponse
}

/// What a fetch needs to know about the feed and the run.
public struct FetchContext: Sendable {
    /// The feed's name, for messages.
    public var feed: String
    /// The folder that relative paths and `file://` URLs are read from.
    public var baseDirectory: URL
    public var policy: FetchPolicy
    /// Use only cached responses; make no network request.
    public var offline: Bool
    package var cache: any ResponseCacheReading
    public var redactor: Redactor
    /// The moment "now" for cache ages; tests may set it.
    public var now: @Sendable () -> Date
    /// Where requests, retries and cache decisions are logged (debug and info), with the feed's
    /// name as metadata. URLs in its messages are redacted.
    public var logger: Logger
    /// The gate of the policy's budget, shared by the feeds of the budget (``RequestBudgets``).
    var budgetGate: RequestBudgetGate?

    package init(
        feed: String, baseDirectory: URL, policy: FetchPolicy = FetchPolicy(), offline: Bool = false,
        cache: any ResponseCacheReading, redactor: Redactor = Redactor(),
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "feedwork.fetch")
    ) {
        self.feed = feed
        self.baseDirectory = baseDirectory
        self.policy = policy
        self.offline = offline
        self.cache = cache
        self.redactor = redactor
        self.now = now
        var logger = logger
        logger[metadataKey: "feed"] = "\(feed)"
        self.logger = logger
    }
}

/// Limits and retry settings for requests, from `defaults:` in feeds.yaml (or a feed's own keys).
public struct FetchPolicy: Sendable, Hashable {
    /// The most time one attempt may take, from connecting to the last byte.
    public var timeout: FeedDuration
    public var connectTimeout: FeedDuration
    /// Retries after the first attempt, on connection errors, timeouts, 5xx and 429.
    public var retries: Int
    /// The first backoff delay; doubled on each retry, with jitter.
    public var backoff: FeedDuration
    /// The longest `Retry-After` that is honoured; longer ones are cut to this.
    public var retryAfterCap: FeedDuration
    /// Bodies larger than this abort the request with an error.
    public var maxResponseBytes: Int
    /// Images of media columns larger than this are not mirrored (`max_media_size`).
    public var maxMediaBytes: Int = 5 * 1024 * 1024
    /// Whether the images of the feed's media columns are mirrored after its passes
    /// (`mirror_media`, default `true`).
    public var mirrorsMedia = true
    public var maxRedirects: Int
    /// The budget requests wait for before they are sent (`budget:` or `rate_limit:`), if any.
    public var budget: RequestBudget?
    /// Which redirects are followed (`follow_redirects`); see ``RedirectPolicy``.
    public var followRedirects: RedirectPolicy

    public init(
        timeout: FeedDuration = .seconds(30), connectTimeout: FeedDuration = .seconds(10), retries: Int = 3,
        backoff: FeedDuration = .milliseconds(200), retryAfterCap: FeedDuration = .seconds(60),
        maxResponseBytes: Int = 50 * 1024 * 1024, maxRedirects: Int = 5, followRedirects: RedirectPolicy = .any
    ) {
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.retries = retries
        self.backoff = backoff
        self.retryAfterCap = retryAfterCap
        self.maxResponseBytes = maxResponseBytes
        self.maxRedirects = maxRedirects
        self.followRedirects = followRedirects
    }
}

/// Why a fetch failed. Carries the redacted URL and the number of attempts.
public struct FetchError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The server answered with a status that is not 2xx (after retries for 5xx and 429).
        case status(Int)
        /// The connection failed (refused, reset, DNS, TLS...), with libcurl's message.
        case transport(String)
        case timeout
        /// The body was larger than the limit, in bytes.
        case tooLarge(limit: Int)
        case tooManyRedirects
        /// A redirect that `follow_redirects` does not follow: its target (redacted) and why.
        case redirectRefused(to: String, reason: String)
        case fileNotFound
        case fileUnreadable(String)
        /// `--offline` and no cached response.
        case offlineWithoutCache
    }

    public var kind: Kind
    /// The URL with secrets replaced by `***`.
    public var url: String
    public var attempts: Int
    /// For an HTTP status: the start of the response's body (its first 300 bytes, on one line,
    /// secrets replaced by `***`), which usually says what was wrong with the request.
    public var bodyExcerpt: String?
    /// When no response came (a connection failure, a timeout): the origin (``origin(of:)``)
    /// of the exchange that failed, after redirects, which may not be the URL's own; redacted.
    public var failedOrigin: String?

    /// `scheme://host:port` of `url` (scheme and host in lower case, the port the scheme implies
    /// when it names none), or `nil` when it has no host.
    public static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let scheme = components.scheme?.lowercased() ?? ""
        let port = components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(host):\(port)"
    }

    public init(_ kind: Kind, url: String, attempts: Int = 0) {
        self.kind = kind
        self.url = url
        self.attempts = attempts
    }

    /// What went wrong, without the URL: `HTTP 503`, `timed out`.
    public var kindDescription: String {
        switch kind {
        case .status(let code): "HTTP \(code)"
        case .transport(let message): "connection failed: \(message)"
        case .timeout: "timed out"
        case .tooLarge(let limit): "response larger than the limit of \(limit) bytes"
        case .tooManyRedirects: "too many redirects"
        case .redirectRefused(let target, let reason): "redirect to \(target) not followed: \(reason)"
        case .fileNotFound: "file not found"
        case .fileUnreadable(let message): "file unreadable: \(message)"
        case .offlineWithoutCache: "offline and no cached response"
        }
    }

    public var description: String {
        let tries = attempts > 1 ? " after \(attempts) attempts" : ""
        let body = bodyExcerpt.map { $0.isEmpty ? "; the response body is empty" : "; the response began: \($0)" } ?? ""
        return "\(url): \(kindDescription)\(tries)\(body)"
    }

    /// The first `limit` bytes of `body` on one line (cut at a character, control characters
    /// as spaces, `...` when there is more), redacted.
    public static func excerpt(of body: Data, limit: Int = 300, redactor: Redactor) -> String {
        var text = String(decoding: body.prefix(limit), as: UTF8.self)
        // A character cut in two decodes as U+FFFD at the end: leave it out.
        if body.count > limit, text.last == "\u{FFFD}" { text.removeLast() }
        text = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return redactor.redact(text + (body.count > limit ? "..." : ""))
    }
}
