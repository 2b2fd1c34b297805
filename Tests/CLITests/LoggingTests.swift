import FeedTestSupport
import Foundation
import Testing

/// Log lines on stderr: none by default, requests with `-v`, retries with their reason at
/// info, and never a secret.
@Suite("Logging")
struct LoggingTests {
    let directory: URL
    let secret = "s3cr3t-key-value"

    init() throws {
        directory = try FeedworkProcess.makeFolder("logging")
    }

    /// A fruit API that fails its first request with a 503 when `flaky`, and wants the key.
    func serve(flaky: Bool = false) throws -> LoopbackServer {
        let secret = secret
        let server = try LoopbackServer { request in
            if flaky && request.number == 1 { return .status(503) }
            guard request.query("key") == secret else { return .status(401) }
            return .json(#"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#)
        }
        let yaml = """
            defaults: { backoff: 10ms }
            feeds:
              - { name: shop, adapter: fruit, url: "\(server.url("/fruit"))?key=${FRUIT_KEY}" }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        return server
    }

    func run(_ arguments: [String]) async throws -> FeedworkProcess.Result {
        try await FeedworkProcess.run(["run"] + arguments, in: directory, environment: ["FRUIT_KEY": secret])
    }

    @Test func aRunLogsNothingByDefault() async throws {
        let server = try serve()
        let result = try await run([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        withExtendedLifetime(server) {}
    }

    @Test func verboseLogsEachRequestWithItsStatusSizeAndTimeAndNoSecret() async throws {
        let server = try serve()
        let result = try await run(["-v"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains(" -> 200, ") })
        #expect(line.contains("debug"))
        #expect(line.contains("GET \(server.url("/fruit"))?key=***"))
        #expect(line.contains("ms (attempt 1)"))
        #expect(!result.stderr.contains(secret))
    }

    @Test func aRetryIsLoggedAtInfoWithItsReason() async throws {
        let server = try serve(flaky: true)
        let result = try await run(["--log-level", "info"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("retry 1 of 3 in"))
        #expect(result.stderr.contains("after HTTP 503"))
        #expect(!result.stderr.contains(" -> 200, "), "request lines are debug")
        withExtendedLifetime(server) {}
    }

    @Test func aCommandWithoutLoggingOptionsLogsNoRetries() async throws {
        let server = try LoopbackServer { _ in .status(503) }
        let result = try await FeedworkProcess.run(["init", "--from", server.url("/items"), "--print"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "only the error: \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: cannot read the sample: "))
        #expect(result.stderr.contains("HTTP 503 after 4 attempts"))
    }

    @Test func verboseLogsTheRequestBodyAndAnErrorsResponseBodyWithNoSecret() async throws {
        let server = try LoopbackServer { request in
            .json(#"{"error":"bad query","echo":\#(request.bodyText)}"#, status: 400)
        }
        let yaml = """
            feeds:
              - name: search
                adapter: json
                url: \(server.url("/search"))
                method: POST
                body: { query: w, token: "${FRUIT_KEY}" }
                entity: hit
                key: id
                fields: { id: int }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await run(["-v"])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains(#"POST \#(server.url("/search")): request body (40 B): {"query":"w","token":"***"}"#)
        )
        #expect(result.stderr.contains(#"-> 400, "#))
        #expect(result.stderr.contains(#"{"error":"bad query","echo":{"query":"w","token":"***"}}"#))
        #expect(!result.stderr.contains(secret))
        withExtendedLifetime(server) {}
    }

    @Test func verboseAndQuietTogetherAreAUsageError() async throws {
        let result = try await run(["-v", "-q"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("-v and -q contradict each other"))
    }
}
