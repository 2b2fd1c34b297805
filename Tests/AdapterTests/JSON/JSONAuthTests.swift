import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("json adapter: requests and auth")
struct JSONAuthTests {
    static let fields = """
            records: $.items
            entity: item
            key: id
            fields: { id: int }
        """

    static func server() throws -> LoopbackServer {
        try LoopbackServer { _ in .json(#"{"items":[{"id":1}]}"#) }
    }

    @Test func bearerTokenGoesInTheAuthorizationHeader() async throws {
        let server = try Self.server()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    auth: { type: bearer, token: \"${TOKEN}\" }\n" + Self.fields,
            environment: ["TOKEN": "tok-123456"])
        _ = try await harness.run()
        #expect(server.requests.first?.header("authorization") == "Bearer tok-123456")
    }

    @Test func apiKeyGoesInANamedHeader() async throws {
        let server = try Self.server()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    auth: { type: api_key, header: X-Api-Key, value: \"${KEY}\" }\n" + Self.fields,
            environment: ["KEY": "key-abcdef"])
        _ = try await harness.run()
        #expect(server.requests.first?.header("x-api-key") == "key-abcdef")
        #expect(server.requests.first?.query("X-Api-Key") == nil)
    }

    @Test func apiKeyGoesInTheQueryOfEveryPage() async throws {
        let server = try LoopbackServer { request in
            request.query("page") == nil
                ? .json(#"{"items":[{"id":1}],"next":"/items?page=2"}"#) : .json(#"{"items":[{"id":2}]}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    auth: { type: api_key, query: access_key, value: \"${KEY}\" }\n"
                + "    pagination: { type: next_url, next_path: next }\n" + Self.fields,
            environment: ["KEY": "key-abc/def"])
        _ = try await harness.run()
        #expect(server.requests.map { $0.query("access_key") } == ["key-abc/def", "key-abc/def"])
    }

    @Test func basicAuthSendsBase64Credentials() async throws {
        let server = try Self.server()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    auth: { type: basic, username: ada, password: \"${PASSWORD}\" }\n" + Self.fields,
            environment: ["PASSWORD": "s3cret:pw"])
        _ = try await harness.run()
        let expected = "Basic " + Data("ada:s3cret:pw".utf8).base64EncodedString()
        #expect(server.requests.first?.header("authorization") == expected)
    }

    @Test func secretsNeverReachTheCacheRunsOrErrors() async throws {
        let server = try LoopbackServer { request in
            request.query("page") == nil
                ? .json(#"{"items":[{"id":1}],"next":"/items?page=2"}"#) : .status(401)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    auth: { type: api_key, query: key, value: \"${KEY}\" }\n"
                + "    pagination: { type: next_url, next_path: next }\n" + Self.fields,
            environment: ["KEY": "very-secret-key"])
        let report = try await harness.run()
        let error = try #require(report.feeds.first?.error)
        #expect(error.contains("HTTP 401"))
        #expect(!error.contains("very-secret-key"))
        #expect(error.contains("key=***"))
        let runs = try await harness.rows("SELECT error FROM _runs")
        #expect(JSONFeedTest.texts(runs, "error").allSatisfy { !$0.contains("very-secret-key") })
        // The successful first page of a later good pass is cached under a redacted URL.
        let good = try LoopbackServer { _ in .json(#"{"items":[{"id":1}]}"#).header("ETag", "\"v1\"") }
        let other = try JSONFeedTest.harness(
            url: good.url("/items"), "    auth: { type: api_key, query: key, value: \"${KEY}\" }\n" + Self.fields,
            environment: ["KEY": "very-secret-key"])
        _ = try await other.run()
        let cached = JSONFeedTest.texts(try await other.rows("SELECT url FROM _http_cache"), "url")
        #expect(cached.count == 1)
        #expect(cached.allSatisfy { !$0.contains("very-secret-key") && $0.contains("key=***") })
    }

    @Test func literalCredentialsAreRedactedToo() async throws {
        let server = try LoopbackServer { _ in .status(403) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    auth: { type: api_key, query: token, value: literal-token-42 }\n" + Self.fields)
        let report = try await harness.run()
        let error = try #require(report.feeds.first?.error)
        #expect(!error.contains("literal-token-42"))
        #expect(server.requests.first?.query("token") == "literal-token-42")
    }

    @Test func postSendsTheBodyAsJSONWithHeadersAndRenderedTemplates() async throws {
        let server = try Self.server()
        let harness = try JSONFeedTest.harness(
            url: server.url("/search"),
            """
                method: POST
                headers: { Accept: application/json, X-Day: "{{today|yyyy-MM-dd}}" }
                params: { since: "{{today-7d|yyyy-MM-dd}}" }
                body: { query: fruit, limit: 50, exact: true, filters: [{ field: origin, value: GB }], day: "{{today|dd/MM/yyyy}}" }
            """ + "\n" + Self.fields)
        // One moment for the pass and the expectations, so that midnight cannot fall between them.
        let now = FeedHarness.fixedStart
        _ = try await harness.run(startDate: now)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.header("accept") == "application/json")
        #expect(request.header("content-type") == "application/json")
        let today = TemplatedString.self
        #expect(request.header("x-day") == (try today.init(parsing: "{{today|yyyy-MM-dd}}")).render(now: now))
        #expect(request.query("since") == (try today.init(parsing: "{{today-7d|yyyy-MM-dd}}")).render(now: now))
        let body = try JSONParser.parse(request.body)
        #expect(body["query"] == .string("fruit"))
        #expect(body["limit"] == .number("50"))
        #expect(body["exact"] == .bool(true))
        #expect(body["filters"]?[0]?["value"] == .string("GB"))
        #expect(body["day"] == .string((try today.init(parsing: "{{today|dd/MM/yyyy}}")).render(now: now)))
    }

    @Test func secretsInHeadersAndBodiesReachTheServerButNotTheStoreFiles() async throws {
        let server = try LoopbackServer { _ in .json(#"{"items":[{"id":1},{"id":2}]}"#).header("ETag", "\"v1\"") }
        let harness = try JSONFeedTest.harness(
            url: server.url("/search"),
            """
                method: POST
                headers: { X-Api-Key: "${HEADER_SECRET}" }
                body: { query: fruit, token: "${BODY_SECRET}" }
            """ + "\n" + Self.fields,
            environment: ["HEADER_SECRET": "header-secret-8431", "BODY_SECRET": "body-secret-5512"])
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok)
        let request = try #require(server.requests.first)
        #expect(request.header("x-api-key") == "header-secret-8431")
        #expect(request.bodyText.contains("body-secret-5512"))

        let reportText = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        let store = try harness.config().storePath
        for path in [store, store + "-wal", store + "-shm"] {
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            for secret in ["header-secret-8431", "body-secret-5512"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(path)")
                #expect(!reportText.contains(secret))
            }
        }
    }
}
