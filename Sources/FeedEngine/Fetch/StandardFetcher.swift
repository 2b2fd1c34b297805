import FeedKit
import Foundation
import Logging

/// The engine's fetcher: HTTP(S) through libcurl and local files, with retries, conditional
/// requests, the response cache, offline fallback and size limits.
///
/// For a remote request, in order:
/// 1. A cached response younger than the request's `maxAge` is returned as
///    ``FetchResponse/Origin/fresh``, with no request made.
/// 2. In an offline run, the cached response is returned as ``FetchResponse/Origin/stale(age:)``;
///    without one, ``FetchError/Kind/offlineWithoutCache`` is thrown.
/// 3. Otherwise the request is sent, with `If-None-Match` / `If-Modified-Since` from the cached
///    response. Connection errors, timeouts, 5xx and 429 are retried up to the policy's `retries`,
///    after an exponential backoff with jitter or the server's `Retry-After` (capped). Other 4xx
///    are not retried.
/// 4. A 2xx is returned as ``FetchResponse/Origin/network`` with a new cache entry in
///    the response's `cacheUpdate` (for cacheable requests); a 304 returns the cached body as
///    ``FetchResponse/Origin/notModified`` with the entry's `fetchedAt` refreshed.
/// 5. When the retries are spent on a retryable failure, a cached response stands in as
///    ``FetchResponse/Origin/stale(age:)``; without one the failure is thrown.
///
/// The fetcher only reads the cache: the engine stores `cacheUpdate` in the feed's transaction.
/// Every URL and message it produces is redacted with the context's ``Redactor``. In a pass
/// this repeats ``PassRedaction`` for what leaves the pass, and is kept for what never crosses
/// that boundary: the responses and errors the adapter receives, whose URLs it may keep in
/// `_state` or in rejects, and fetches outside a pass (`feedwork init`).
public struct StandardFetcher: Fetching {
    public let client: CurlHTTPClient

    /// A fetcher that sends its requests through `client`.
    public init(client: CurlHTTPClient = .shared) {
        self.client = client
    }

    public func fetch(_ request: FetchRequest, context: FetchContext) async throws -> FetchResponse {
        guard request.isRemote else {
            return try FileSource.read(request, context: context)
        }
        let url = context.redactor.redact(request.url)
        let key = request.cacheKey
        let cached =
            request.cacheable
            ? try await context.cache.cachedResponse(forKey: key, includingBody: !request.omitsUnchangedBody).map {
                context.redactor.unseal($0)
            } : nil

        if let cached {
            let age = Self.age(of: cached, now: context.now())
            if let maxAge = request.maxAge, age < maxAge.seconds {
                context.logger.debug("\(request.method) \(url): from the cache, \(Int(age))s old (max_age \(maxAge))")
                return Self.response(from: cached, url: url, origin: .fresh)
            }
            if context.offline {
                guard let cached = try await Self.withBody(cached, context) else {
                    throw FetchError(.offlineWithoutCache, url: url)
                }
                context.logger.debug("\(request.method) \(url): offline, from the cache, \(Int(age))s old")
                return Self.response(from: cached, url: url, origin: .stale(age: age))
            }
        } else if context.offline {
            throw FetchError(.offlineWithoutCache, url: url)
        }
        return try await fetchFromNetwork(request, key: key, cached: cached, context: context)
    }

    /// Sends `request` over the network, retrying what may be retried, and answers with the
    /// cached copy as stale when the retries are spent on a retryable failure.
    private func fetchFromNetwork(
        _ request: FetchRequest, key: String, cached: CachedResponse?, context: FetchContext
    ) async throws -> FetchResponse {
        var exchange = NetworkExchange(request, key: key, cached: cached, context: context, client: client)
        exchange.logBody()
        while true {
            let outcome = try await exchange.attempt()
            switch try exchange.settle(outcome) {
            case .answered(let response):
                return response
            case .retryable(let failure, let retryAfter):
                if try await exchange.waitToRetry(after: failure, retryAfter: retryAfter) { continue }
                if let stale = try await exchange.staleCopy(after: failure) { return stale }
                throw failure
            }
        }
    }

    /// The libcurl request for `request`, made conditional on the cached response's validators.
    static func httpRequest(
        for request: FetchRequest, cached: CachedResponse?, policy: FetchPolicy, redactor: Redactor = Redactor()
    ) -> HTTPRequest {
        var headers = request.headers
        let names = Set(headers.map { $0.name.lowercased() })
        if let etag = cached?.etag, !names.contains("if-none-match") {
            headers.append(HTTPHeader("If-None-Match", etag))
        }
        if let lastModified = cached?.lastModified, !names.contains("if-modified-since") {
            headers.append(HTTPHeader("If-Modified-Since", lastModified))
        }
        return HTTPRequest(
            url: request.url, method: request.method, headers: headers, body: request.body,
            timeout: policy.timeout, connectTimeout: policy.connectTimeout, maxRedirects: policy.maxRedirects,
            maxResponseBytes: policy.maxResponseBytes, redirects: policy.followRedirects, redactor: redactor)
    }

    /// The cache entry for a 2xx response. Cookies are not kept.
    static func cacheEntry(for response: HTTPResponse, key: String, url: String, now: Date) -> CachedResponse {
        var headers = response.headers
        headers["set-cookie"] = nil
        return CachedResponse(
            key: key, url: url, status: response.status, headers: headers, etag: response.headers["etag"],
            lastModified: response.headers["last-modified"], fetchedAt: now, body: response.body)
    }

    /// The response made from a cached entry; a body left out of it is marked as omitted.
    static func response(from cached: CachedResponse, url: String, origin: FetchResponse.Origin)
        -> FetchResponse
    {
        var response = FetchResponse(
            url: url, status: cached.status, headers: cached.headers, body: cached.body ?? Data(), origin: origin)
        response.bodyIsOmitted = cached.body == nil
        return response
    }

    /// `cached` with its body, read now when it was left out; `nil` if the entry is gone.
    static func withBody(_ cached: CachedResponse, _ context: FetchContext) async throws -> CachedResponse? {
        guard cached.body == nil else { return cached }
        return try await context.cache.cachedResponse(forKey: cached.key, includingBody: true).map {
            context.redactor.unseal($0)
        }
    }

    /// How old `cached` is at `now`, never below zero.
    static func age(of cached: CachedResponse, now: Date) -> TimeInterval {
        max(0, now.timeIntervalSince(cached.fetchedAt))
    }
}
