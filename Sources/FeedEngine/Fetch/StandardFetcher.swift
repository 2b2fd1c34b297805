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

    /// Sends `request` once, and how long its answer took.
    private static func send(
        _ request: HTTPRequest, with client: CurlHTTPClient
    ) async -> (Result<HTTPResponse, HTTPClientError>, took: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        do throws(HTTPClientError) {
            return (.success(try await client.perform(request)), start.duration(to: clock.now))
        } catch {
            return (.failure(error), start.duration(to: clock.now))
        }
    }

    private func fetchFromNetwork(
        _ request: FetchRequest, key: String, cached: CachedResponse?, context: FetchContext
    ) async throws -> FetchResponse {
        let url = context.redactor.redact(request.url)
        let policy = context.policy
        let httpRequest = Self.httpRequest(for: request, cached: cached, policy: policy, redactor: context.redactor)
        if let body = request.body, context.logger.logLevel <= .debug {
            let text = FetchError.excerpt(of: body, limit: 4096, redactor: context.redactor)
            context.logger.debug("\(request.method) \(url): request body (\(body.count) B): \(text)")
        }
        var attempts = 0
        var bytes = 0
        while true {
            attempts += 1
            let outcome: Result<HTTPResponse, HTTPClientError>
            let took: Duration
            if let gate = context.budgetGate {
                let waited: Duration
                ((outcome, took), waited) = try await gate.admit { await Self.send(httpRequest, with: client) }
                if waited > .zero {
                    let milliseconds =
                        waited.components.seconds * 1000 + waited.components.attoseconds / 1_000_000_000_000_000
                    context.logger.debug(
                        "\(request.method) \(url): waited \(milliseconds) ms for budget '\(gate.budget.name)'")
                }
            } else {
                (outcome, took) = await Self.send(httpRequest, with: client)
            }
            Self.log(
                outcome, request: request, url: url, attempt: attempts, took: took, context)

            let failure: FetchError
            var retryAfter: TimeInterval?
            switch outcome {
            case .failure(let error):
                // An interrupt: the pass stops here, with no retry and no fall-back to the cache.
                if error.kind == .cancelled { throw CancellationError() }
                let kind = Self.kind(of: error, redactor: context.redactor)
                var fetchError = FetchError(kind, url: url, attempts: attempts)
                fetchError.failedOrigin = FetchError.origin(of: error.url ?? request.url).map(context.redactor.redact)
                guard error.isTransient else { throw fetchError }
                failure = fetchError
            case .success(let response):
                bytes += response.bytesReceived
                switch response.status {
                case 200..<300:
                    var fetched = FetchResponse(
                        url: url, status: response.status, headers: response.headers, body: response.body,
                        origin: .network, attempts: attempts, bytesReceived: bytes)
                    if request.cacheable {
                        fetched.cacheUpdate = Self.cacheEntry(for: response, key: key, url: url, now: context.now())
                    }
                    return fetched
                case 304:
                    // A 304 answers our conditional request; without a cached body it is an error.
                    guard let cached else {
                        throw FetchError(.status(304), url: url, attempts: attempts)
                    }
                    var refreshed = cached
                    refreshed.fetchedAt = context.now()
                    refreshed.etag = response.headers["etag"] ?? cached.etag
                    refreshed.lastModified = response.headers["last-modified"] ?? cached.lastModified
                    var notModified = Self.response(from: refreshed, url: url, origin: .notModified)
                    notModified.attempts = attempts
                    notModified.bytesReceived = bytes
                    // The stored body stays; only the time and validators are refreshed.
                    refreshed.body = nil
                    notModified.cacheUpdate = refreshed
                    return notModified
                case 404 where request.acceptsNotFound:
                    return FetchResponse(
                        url: url, status: 404, headers: response.headers, body: response.body, origin: .network,
                        attempts: attempts, bytesReceived: bytes)
                case 401 where request.acceptsUnauthorized:
                    return FetchResponse(
                        url: url, status: 401, headers: response.headers, body: response.body, origin: .network,
                        attempts: attempts, bytesReceived: bytes)
                case let status where request.acceptedStatuses.contains(status):
                    return FetchResponse(
                        url: url, status: status, headers: response.headers, body: response.body, origin: .network,
                        attempts: attempts, bytesReceived: bytes)
                case 429, 500...599:
                    failure = Self.statusError(response, url: url, attempts: attempts, context)
                    retryAfter = response.headers["retry-after"].flatMap {
                        RetryAfter.delay(from: $0, now: context.now())
                    }
                default:
                    throw Self.statusError(response, url: url, attempts: attempts, context)
                }
            }

            if attempts <= policy.retries {
                let delay = Backoff.delay(beforeRetry: attempts, policy: policy, retryAfter: retryAfter)
                context.logger.info(
                    "\(request.method) \(url): retry \(attempts) of \(policy.retries) in \(String(format: "%.1f", delay))s after \(failure.kindDescription)"
                )
                try await Task.sleep(for: .milliseconds(Int64((delay * 1000).rounded())))
                continue
            }
            if let stored = cached, let cached = try await Self.withBody(stored, context) {
                context.logger.info(
                    "\(request.method) \(url): serving the cached response after \(attempts) attempt(s): \(failure.kindDescription)"
                )
                var stale = Self.response(
                    from: cached, url: url, origin: .stale(age: Self.age(of: cached, now: context.now())))
                stale.attempts = attempts
                stale.bytesReceived = bytes
                return stale
            }
            throw failure
        }
    }

    /// The error for a response whose status is a failure, with the start of its body.
    private static func statusError(_ response: HTTPResponse, url: String, attempts: Int, _ context: FetchContext)
        -> FetchError
    {
        var error = FetchError(.status(response.status), url: url, attempts: attempts)
        error.bodyExcerpt = FetchError.excerpt(of: response.body, redactor: context.redactor)
        return error
    }

    /// One debug line per attempt: `GET URL -> 200, 1234 B, 35 ms (attempt 1)`, or its error.
    private static func log(
        _ outcome: Result<HTTPResponse, HTTPClientError>, request: FetchRequest, url: String, attempt: Int,
        took: Duration, _ context: FetchContext
    ) {
        guard context.logger.logLevel <= .debug else { return }
        let milliseconds = took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000
        let result =
            switch outcome {
            case .success(let response) where response.status >= 400:
                "\(response.status), \(response.bytesReceived) B: "
                    + FetchError.excerpt(of: response.body, redactor: context.redactor)
            case .success(let response): "\(response.status), \(response.bytesReceived) B"
            case .failure(let error): context.redactor.redact("\(error)")
            }
        context.logger.debug("\(request.method) \(url) -> \(result), \(milliseconds) ms (attempt \(attempt))")
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

    private static func response(from cached: CachedResponse, url: String, origin: FetchResponse.Origin)
        -> FetchResponse
    {
        var response = FetchResponse(
            url: url, status: cached.status, headers: cached.headers, body: cached.body ?? Data(), origin: origin)
        response.bodyIsOmitted = cached.body == nil
        return response
    }

    /// `cached` with its body, read now when it was left out; `nil` if the entry is gone.
    private static func withBody(_ cached: CachedResponse, _ context: FetchContext) async throws -> CachedResponse? {
        guard cached.body == nil else { return cached }
        return try await context.cache.cachedResponse(forKey: cached.key, includingBody: true).map {
            context.redactor.unseal($0)
        }
    }

    private static func age(of cached: CachedResponse, now: Date) -> TimeInterval {
        max(0, now.timeIntervalSince(cached.fetchedAt))
    }

    private static func kind(of error: HTTPClientError, redactor: Redactor) -> FetchError.Kind {
        switch error.kind {
        case .timeout: .timeout
        case .tooManyRedirects: .tooManyRedirects
        case .redirectRefused(let target, let reason): .redirectRefused(to: redactor.redact(target), reason: reason)
        case .tooLarge(let limit): .tooLarge(limit: limit)
        case .transport(let message): .transport(redactor.redact(message))
        case .cancelled: .transport("cancelled")  // thrown as CancellationError before this
        }
    }
}
