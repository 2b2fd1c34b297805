import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("StandardFetcher retries")
struct StandardFetcherRetryTests {
    /// A client of each test's own: the timing checks must not wait behind other tests' transfers
    /// on the shared client's threads.
    let fetcher = StandardFetcher(client: CurlHTTPClient(workers: 2))

    @Test func serverErrorThenSuccessIsRetried() async throws {
        let server = try LoopbackServer { $0.number == 1 ? .status(500) : .json(#"{"ok":true}"#) }
        defer { server.stop() }
        let response = try await fetcher.fetch(FetchRequest(url: server.url("/items")), context: testContext())
        #expect(response.status == 200)
        #expect(response.origin == .network)
        #expect(response.attempts == 2)
        #expect(response.text == #"{"ok":true}"#)
        #expect(server.requestCount == 2)
    }

    @Test(.timeLimit(.minutes(10)))
    func tooManyRequestsWaitsForRetryAfter() async throws {
        let server = try LoopbackServer {
            $0.number == 1 ? .status(429, headers: [("Retry-After", "1")]) : .json("[]")
        }
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await fetcher.fetch(FetchRequest(url: server.url("/")), context: testContext())
        let elapsed = clock.now - start
        #expect(response.attempts == 2)
        #expect(elapsed >= .milliseconds(900))
        // No upper bound in seconds: a busy CI machine once took 24 s here. The time limit
        // catches a wait that never ends.
    }

    @Test func notFoundFailsWithoutRetry() async throws {
        let server = try LoopbackServer { _ in .status(404) }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/missing")), context: testContext(policy: testPolicy(retries: 3)))
        }
        #expect(error?.kind == .status(404))
        #expect(error?.attempts == 1)
        #expect(server.requestCount == 1)
    }

    @Test func notFoundIsAResponseWhenAccepted() async throws {
        let server = try LoopbackServer { _ in .status(404) }
        defer { server.stop() }
        let request = FetchRequest(url: server.url("/missing"), acceptsNotFound: true)
        let response = try await fetcher.fetch(request, context: testContext())
        #expect(response.status == 404)
        #expect(response.cacheUpdate == nil)
    }

    @Test func serverErrorsPastTheRetriesFail() async throws {
        let server = try LoopbackServer { _ in .status(503) }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/")), context: testContext(policy: testPolicy(retries: 2)))
        }
        #expect(error?.kind == .status(503))
        #expect(error?.attempts == 3)
        #expect(server.requestCount == 3)
    }

    @Test func connectionResetMidBodyIsRetried() async throws {
        let body = String(repeating: "x", count: 10_000)
        let server = try LoopbackServer { request in
            request.number == 1 ? .text(body).reset(afterBodyBytes: 100) : .text(body)
        }
        defer { server.stop() }
        let response = try await fetcher.fetch(FetchRequest(url: server.url("/")), context: testContext())
        #expect(response.attempts == 2)
        #expect(response.body.count == 10_000)
    }

    @Test func bodyShorterThanContentLengthIsRetried() async throws {
        let server = try LoopbackServer { request in
            request.number == 1 ? .text("short").shortBody(declaredLength: 1000) : .text("complete")
        }
        defer { server.stop() }
        let response = try await fetcher.fetch(FetchRequest(url: server.url("/")), context: testContext())
        #expect(response.attempts == 2)
        #expect(response.text == "complete")
    }

    @Test func bodyShorterThanContentLengthIsATransportError() async throws {
        let server = try LoopbackServer { _ in .text("short").shortBody(declaredLength: 1000) }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/")), context: testContext(policy: testPolicy(retries: 0)))
        }
        guard case .transport = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
    }

    @Test func stalledBodyTimesOutAndIsRetried() async throws {
        let server = try LoopbackServer { request in
            request.number == 1 ? .text("late").stalled(for: .seconds(60)) : .text("on time")
        }
        defer { server.stop() }
        // Two seconds: a loaded machine may take longer than a few hundred milliseconds to
        // answer even the prompt second attempt.
        let response = try await fetcher.fetch(
            FetchRequest(url: server.url("/")), context: testContext(policy: testPolicy(timeout: .seconds(2))))
        #expect(response.attempts == 2)
        // "on time" proves the stalled attempt was cut short: without the timeout it would be "late".
        #expect(response.text == "on time")
    }

    @Test func stalledBodyPastTheRetriesIsATimeout() async throws {
        let server = try LoopbackServer { _ in .text("late").stalled(for: .seconds(60)) }
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: server.url("/")),
                context: testContext(policy: testPolicy(timeout: .milliseconds(300), retries: 1)))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.attempts == 2)
    }

    @Test func concurrentFetchesAllComplete() async throws {
        let server = try LoopbackServer { request in .text(request.path).delayed(by: .milliseconds(20)) }
        defer { server.stop() }
        let context = testContext()
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await fetcher.fetch(FetchRequest(url: server.url("/\(index)")), context: context).text
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies == Set((0..<24).map { "/\($0)" }))
    }
}
