import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Errors that say what is wrong: a `${VAR}` value used where no secret is shows in its
/// problem, and a feed's report counts every request it sent, retries included.
@Suite("json adapter: helpful errors")
struct JSONHelpfulErrorTests {
    static func problems(_ auth: String, environment: [String: String]) throws -> [String] {
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: """
                feeds:
                  - name: items
                    adapter: json
                    url: https://api.example.com/items
                    auth: \(auth)
                    entity: item
                    key: id
                    fields: { id: int }
                """, environment: environment)
        do {
            _ = try harness.config()
            return []
        } catch let error as ConfigError {
            return error.problems.map(\.message)
        }
    }

    @Test func aVariableUsedWhereNoSecretIsShowsItsValueInTheProblem() throws {
        let problems = try Self.problems(
            #"{ type: "${AUTH_TYPE}", token: "${API_TOKEN}" }"#,
            environment: ["AUTH_TYPE": "bearr", "API_TOKEN": "s3cr3t-token"])
        #expect(problems.contains { $0.contains("unknown auth type 'bearr'") }, "\(problems)")
        #expect(!problems.contains { $0.contains("s3cr3t") })
    }

    @Test func aVariableWhoseNameSaysSecretStaysRedacted() throws {
        let problems = try Self.problems(
            #"{ type: "${TOKEN_KIND}", token: x }"#, environment: ["TOKEN_KIND": "bearr"])
        #expect(problems.contains { $0.contains("unknown auth type '***'") }, "\(problems)")
        #expect(!problems.contains { $0.contains("bearr") })
    }

    @Test func aVariableUsedAtACredentialStaysRedacted() throws {
        // The same value as the type: where it might be a secret, it is hidden everywhere.
        let problems = try Self.problems(
            #"{ type: "${KIND}", password: "${KIND}" }"#, environment: ["KIND": "bearr"])
        #expect(problems.contains { $0.contains("unknown auth type '***'") }, "\(problems)")
    }

    @Test func theReportCountsEveryRequestARetrySent() async throws {
        let answered = Shared(0)
        let server = try LoopbackServer { _ in
            answered.set(answered.value + 1)
            return answered.value <= 2 ? .json(#"{"error":"busy"}"#, status: 503) : .json(JSONFeedTest.items(0..<2))
        }
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: """
                feeds:
                  - name: items
                    adapter: json
                    url: \(server.url("/items"))
                    retries: 2
                    backoff: 0s
                    entity: item
                    key: id
                    fields: { id: int, name: string }
                """)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(server.requestCount == 3)
        #expect(report.requests == 3, "one request retried twice")
    }

    @Test func aFailedRequestCountsItsAttempts() async throws {
        let server = try LoopbackServer { _ in .json(#"{"error":"busy"}"#, status: 503) }
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: """
                feeds:
                  - name: items
                    adapter: json
                    url: \(server.url("/items"))
                    retries: 1
                    backoff: 0s
                    entity: item
                    key: id
                    fields: { id: int, name: string }
                """)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.requests == 2)
    }
}
