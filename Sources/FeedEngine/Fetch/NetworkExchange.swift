import FeedKit
import Foundation
import Logging

/// One remote request of ``StandardFetcher`` on its way through the network: the libcurl request
/// made from it, the attempts made so far and the bytes received over all of them.
///
/// Each attempt is sent (through the budget's gate, if any), logged, then settled: an answer the
/// caller gets, a failure that may be retried, or an error thrown at once. When the retries are
/// spent, the cached copy may stand in for the answer.
struct NetworkExchange {
    /// How an attempt ended, when it did not throw.
    enum Settlement {
        /// The answer to return: a 2xx, a 304 over the cached body, or an accepted status.
        case answered(FetchResponse)
        /// A failure worth another attempt (a transient error, a 429 or a 5xx), with the delay
        /// the server asked for in its `Retry-After`, if any.
        case retryable(FetchError, retryAfter: TimeInterval?)
    }

    let request: FetchRequest
    /// The request's cache key, for the cache entry of a 2xx.
    let key: String
    /// The cached response, whose validators made the request conditional.
    let cached: CachedResponse?
    let context: FetchContext
    let client: CurlHTTPClient
    /// The request's URL, redacted, as every message and response carries it.
    let url: String
    let httpRequest: HTTPRequest
    private(set) var attempts = 0
    private(set) var bytes = 0

    init(
        _ request: FetchRequest, key: String, cached: CachedResponse?, context: FetchContext, client: CurlHTTPClient
    ) {
        self.request = request
        self.key = key
        self.cached = cached
        self.context = context
        self.client = client
        url = context.redactor.redact(request.url)
        httpRequest = StandardFetcher.httpRequest(
            for: request, cached: cached, policy: context.policy, redactor: context.redactor)
    }

    /// Logs the request's body, at debug level, before the first attempt.
    func logBody() {
        guard let body = request.body, context.logger.logLevel <= .debug else { return }
        let text = FetchError.excerpt(of: body, limit: 4096, redactor: context.redactor)
        context.logger.debug("\(request.method) \(url): request body (\(body.count) B): \(text)")
    }

    /// Sends the request once more, waiting for the budget's gate first, and logs the outcome.
    mutating func attempt() async throws -> Result<HTTPResponse, HTTPClientError> {
        attempts += 1
        let outcome: Result<HTTPResponse, HTTPClientError>
        let took: Duration
        if let gate = context.budgetGate {
            let waited: Duration
            let (httpRequest, client) = (httpRequest, client)
            ((outcome, took), waited) = try await gate.admit { await Self.send(httpRequest, with: client) }
            if waited > .zero {
                context.logger.debug(
                    "\(request.method) \(url): waited \(Self.milliseconds(waited)) ms for budget '\(gate.budget.name)'")
            }
        } else {
            (outcome, took) = await Self.send(httpRequest, with: client)
        }
        log(outcome, took: took)
        return outcome
    }

    /// What the attempt's `outcome` means: an answer, a failure to retry, or (thrown) an error
    /// that no retry can mend; an interrupt is thrown as `CancellationError`.
    mutating func settle(_ outcome: Result<HTTPResponse, HTTPClientError>) throws -> Settlement {
        let response: HTTPResponse
        switch outcome {
        case .failure(let error):
            // An interrupt: the pass stops here, with no retry and no fall-back to the cache.
            if error.kind == .cancelled { throw CancellationError() }
            var fetchError = FetchError(Self.kind(of: error, redactor: context.redactor), url: url, attempts: attempts)
            fetchError.failedOrigin = FetchError.origin(of: error.url ?? request.url).map(context.redactor.redact)
            guard error.isTransient else { throw fetchError }
            return .retryable(fetchError, retryAfter: nil)
        case .success(let answer):
            response = answer
        }
        bytes += response.bytesReceived
        switch response.status {
        case 200..<300:
            var fetched = FetchResponse(
                url: url, status: response.status, headers: response.headers, body: response.body,
                origin: .network, attempts: attempts, bytesReceived: bytes)
            if request.cacheable {
                fetched.cacheUpdate = StandardFetcher.cacheEntry(for: response, key: key, url: url, now: context.now())
            }
            return .answered(fetched)
        case 304:
            return .answered(try notModified(response))
        case 404 where request.acceptsNotFound, 401 where request.acceptsUnauthorized,
            _ where request.acceptedStatuses.contains(response.status):
            return .answered(
                FetchResponse(
                    url: url, status: response.status, headers: response.headers, body: response.body,
                    origin: .network, attempts: attempts, bytesReceived: bytes))
        case 429, 500...599:
            let failure = statusError(response)
            let retryAfter = response.headers["retry-after"].flatMap { RetryAfter.delay(from: $0, now: context.now()) }
            return .retryable(failure, retryAfter: retryAfter)
        default:
            throw statusError(response)
        }
    }

    /// Waits before the next attempt and says so, when `failure` leaves retries to make.
    func waitToRetry(after failure: FetchError, retryAfter: TimeInterval?) async throws -> Bool {
        let policy = context.policy
        guard attempts <= policy.retries else { return false }
        let delay = Backoff.delay(beforeRetry: attempts, policy: policy, retryAfter: retryAfter)
        context.logger.info(
            "\(request.method) \(url): retry \(attempts) of \(policy.retries) in \(String(format: "%.1f", delay))s after \(failure.kindDescription)"
        )
        try await Task.sleep(for: .milliseconds(Int64((delay * 1000).rounded())))
        return true
    }

    /// The cached response as a stale answer once the retries are spent on `failure`, or `nil`
    /// when there is none.
    func staleCopy(after failure: FetchError) async throws -> FetchResponse? {
        guard let stored = cached, let cached = try await StandardFetcher.withBody(stored, context) else { return nil }
        context.logger.info(
            "\(request.method) \(url): serving the cached response after \(attempts) attempt(s): \(failure.kindDescription)"
        )
        var stale = StandardFetcher.response(
            from: cached, url: url, origin: .stale(age: StandardFetcher.age(of: cached, now: context.now())))
        stale.attempts = attempts
        stale.bytesReceived = bytes
        return stale
    }

    /// A 304 answers our conditional request with the cached body; without one it is an error.
    private func notModified(_ response: HTTPResponse) throws -> FetchResponse {
        guard let cached else {
            throw FetchError(.status(304), url: url, attempts: attempts)
        }
        var refreshed = cached
        refreshed.fetchedAt = context.now()
        refreshed.etag = response.headers["etag"] ?? cached.etag
        refreshed.lastModified = response.headers["last-modified"] ?? cached.lastModified
        var notModified = StandardFetcher.response(from: refreshed, url: url, origin: .notModified)
        notModified.attempts = attempts
        notModified.bytesReceived = bytes
        // The stored body stays; only the time and validators are refreshed.
        refreshed.body = nil
        notModified.cacheUpdate = refreshed
        return notModified
    }

    /// The error for a response whose status is a failure, with the start of its body.
    private func statusError(_ response: HTTPResponse) -> FetchError {
        var error = FetchError(.status(response.status), url: url, attempts: attempts)
        error.bodyExcerpt = FetchError.excerpt(of: response.body, redactor: context.redactor)
        return error
    }

    /// One debug line per attempt: `GET URL -> 200, 1234 B, 35 ms (attempt 1)`, or its error.
    private func log(_ outcome: Result<HTTPResponse, HTTPClientError>, took: Duration) {
        guard context.logger.logLevel <= .debug else { return }
        let result =
            switch outcome {
            case .success(let response) where response.status >= 400:
                "\(response.status), \(response.bytesReceived) B: "
                    + FetchError.excerpt(of: response.body, redactor: context.redactor)
            case .success(let response): "\(response.status), \(response.bytesReceived) B"
            case .failure(let error): context.redactor.redact("\(error)")
            }
        context.logger.debug(
            "\(request.method) \(url) -> \(result), \(Self.milliseconds(took)) ms (attempt \(attempts))")
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

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
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
