import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Errors that explain (the status, the redacted URL and the start of the response body) and
/// `body_format:` (json, form or raw bodies).
@Suite("json adapter: request bodies and HTTP errors")
struct JSONRequestBodyTests {
    static let secret = "k3y-s3cr3t"

    @Test(arguments: HarnessStore.available)
    func anHTTPErrorGivesTheStatusTheRedactedURLAndTheStartOfTheBody(driver: HarnessStore) async throws {
        let padding = String(repeating: "x", count: 400)
        let server = try LoopbackServer { request in
            .json(
                #"{"error":"unknown field 'qury'","key":"\#(request.query("key") ?? "")","pad":"\#(padding)"}"#,
                status: 400)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/search"),
            """
                method: POST
                body: { qury: w }
                auth: { type: api_key, query: key, value: "${KEY}" }
                entity: hit
                key: id
                fields: { id: int }
            """, environment: ["KEY": Self.secret], driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = try #require(report.error)
        #expect(error.contains("\(server.url("/search"))?key=***: HTTP 400"), "\(error)")
        #expect(error.contains(#"the response began: {"error":"unknown field 'qury'","key":"***","pad":"xxx"#))
        #expect(error.hasSuffix("xxx..."), "\(error)")
        #expect(!error.contains(Self.secret))
        let excerpt = try #require(error.range(of: "the response began: ")).upperBound
        // 300 bytes, less the secret's length, plus the three characters of `***`, and `...`.
        #expect(error[excerpt...].utf8.count == 300 - Self.secret.utf8.count + 3 + 3)
        let logged = JSONFeedTest.texts(try await harness.rows("SELECT error FROM _runs"), "error")
        #expect(logged == [error])
    }

    /// Runs a POST feed with `body` and returns the request the server saw.
    static func sentRequest(_ body: String, headers: String = "") async throws -> LoopbackRequest {
        let seen = Shared<LoopbackRequest?>(nil)
        let server = try LoopbackServer { request in
            seen.set(request)
            return .json(#"{"items":[{"id":1}]}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/search"),
            """
                method: POST
            \(body)
            \(headers)
                records: $.items
                entity: hit
                key: id
                fields: { id: int }
            """)
        let report = try #require(try await harness.run(startDate: FeedHarness.fixedStart).feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        return try #require(seen.value)
    }

    @Test func aFormBodyIsURLEncoded() async throws {
        let request = try await Self.sentRequest(
            """
                body_format: form
                body: { query: "fish & chips", size: 25, exact: true, since: "{{today|yyyy}}" }
            """)
        #expect(request.bodyText == "query=fish%20%26%20chips&size=25&exact=true&since=2026")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test func aRawBodyIsSentAsWrittenWithItsOwnContentType() async throws {
        let request = try await Self.sentRequest(
            """
                body_format: raw
                body: '{"query":"w","size":25}'
            """, headers: "    headers: { Content-Type: application/json }")
        #expect(request.bodyText == #"{"query":"w","size":25}"#)
        #expect(request.header("Content-Type") == "application/json")
    }

    @Test func aJSONBodyIsTheDefault() async throws {
        let request = try await Self.sentRequest("    body: { query: w, size: 25 }")
        #expect(request.bodyText == #"{"query":"w","size":25}"#)
        #expect(request.header("Content-Type") == "application/json")
    }

    static let feed = """
          - name: items
            adapter: json
            url: https://api.example.com/search
            method: POST
            entity: item
            key: id
            fields: { id: int }
        """

    @Test func aStringBodyThatLooksLikeJSONIsReportedWithTheFix() throws {
        let problems = try JSONValidationTests.problems(Self.feed + "\n    body: '{\"query\":\"w\"}'")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("9:11: feed 'items': this body is a string that looks like JSON") == true)
        #expect(problems.first?.contains("body_format: raw") == true, "\(problems)")
    }

    @Test func bodyFormatsAreCheckedAgainstTheBody() throws {
        #expect(
            try JSONValidationTests.problems(Self.feed + "\n    body_format: xml\n    body: { a: 1 }") == [
                "9:18: feed 'items': body_format must be json, form or raw, not 'xml'"
            ])
        let nested = try JSONValidationTests.problems(
            Self.feed + "\n    body_format: form\n    body: { a: { b: 1 } }")
        #expect(nested == ["10:16: feed 'items': a form body's values are scalars; 'a' is a mapping"])
        let raw = try JSONValidationTests.problems(Self.feed + "\n    body_format: raw\n    body: { a: 1 }")
        #expect(raw == ["10:11: feed 'items': a raw body is a string, sent as it is"])
        let alone = try JSONValidationTests.problems(Self.feed + "\n    body_format: json")
        #expect(alone == ["9:18: feed 'items': body_format needs a body"])
    }
}
