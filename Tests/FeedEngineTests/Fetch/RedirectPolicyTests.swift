import FeedKit
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

/// `follow_redirects`, with two real servers on different ports of 127.0.0.1: the API, and
/// another host it redirects to (a CDN). Credentials and secrets never reach the other host.
@Suite("Redirects to another host: follow_redirects")
struct RedirectPolicyTests {
    static let redactor = Redactor(secrets: ["s3cret-token", "s3cret-key"])

    /// A request to `url` with a bearer token, an API key in a header, and two plain headers.
    static func request(_ url: String) -> FetchRequest {
        FetchRequest(
            url: url,
            headers: [
                HTTPHeader("Authorization", "Bearer s3cret-token"), HTTPHeader("X-Api-Key", "s3cret-key"),
                HTTPHeader("Accept", "application/json"), HTTPHeader("X-Trace", "plain"),
            ])
    }

    /// The CDN, and the API in front of it: `/data` redirects to the CDN's `/file`, `/echo` to
    /// the CDN with the request's query (a secret in it), `/local` to the API's own `/here`.
    static func servers() throws -> (api: LoopbackServer, cdn: LoopbackServer) {
        let cdn = try LoopbackServer { _ in .json(#""cdn""#) }
        let api = try LoopbackServer { request in
            if request.path == "/data" { return .redirect(to: cdn.url("/file")) }
            if request.path == "/echo" { return .redirect(to: cdn.url("/file?key=s3cret-key")) }
            if request.path == "/local" { return .redirect(to: "/here") }
            return .json(#""api""#)
        }
        return (api, cdn)
    }

    func fetch(_ url: String, _ policy: RedirectPolicy?) async throws -> FetchResponse {
        var fetchPolicy = testPolicy(retries: 0)
        if let policy { fetchPolicy.followRedirects = policy }
        return try await StandardFetcher().fetch(
            Self.request(url), context: testContext(policy: fetchPolicy, redactor: Self.redactor))
    }

    @Test func byDefaultARedirectToAnotherHostIsFollowedWithoutTheCredentials() async throws {
        let (api, cdn) = try Self.servers()
        defer { api.stop(); cdn.stop() }
        let response = try await fetch(api.url("/data?key=s3cret-key"), nil)
        #expect(response.text == #""cdn""#)
        let sent = try #require(cdn.requests.first)
        #expect(sent.header("Authorization") == nil)
        #expect(sent.header("X-Api-Key") == nil)
        #expect(sent.header("Accept") == "application/json")
        #expect(sent.header("X-Trace") == "plain")
        #expect(sent.target == "/file")
        #expect(api.requests.first?.header("X-Api-Key") == "s3cret-key")
    }

    @Test(arguments: [RedirectPolicy.any, .sameHost])
    func aRedirectOnTheSameHostKeepsTheCredentials(policy: RedirectPolicy) async throws {
        let (api, cdn) = try Self.servers()
        defer { api.stop(); cdn.stop() }
        let response = try await fetch(api.url("/local"), policy)
        #expect(response.text == #""api""#)
        #expect(api.requests.last?.path == "/here")
        #expect(api.requests.last?.header("Authorization") == "Bearer s3cret-token")
        #expect(api.requests.last?.header("X-Api-Key") == "s3cret-key")
    }

    @Test func sameHostRefusesARedirectToAnotherPort() async throws {
        let (api, cdn) = try Self.servers()
        defer { api.stop(); cdn.stop() }
        let error = await #expect(throws: FetchError.self) { try await fetch(api.url("/data"), .sameHost) }
        #expect(
            error?.kind
                == .redirectRefused(
                    to: cdn.url("/file"), reason: "it leads to another host, and follow_redirects is same_host"))
        #expect(cdn.requestCount == 0)
    }

    @Test func neverRefusesEveryRedirect() async throws {
        let (api, cdn) = try Self.servers()
        defer { api.stop(); cdn.stop() }
        for path in ["/data", "/local"] {
            let error = await #expect(throws: FetchError.self) { try await fetch(api.url(path), .never) }
            #expect(error?.description.contains("not followed: follow_redirects is never") == true)
        }
        #expect(api.requestCount == 2)
        #expect(cdn.requestCount == 0)
    }

    @Test func aRedirectCarryingASecretToAnotherHostIsNotFollowed() async throws {
        let (api, cdn) = try Self.servers()
        defer { api.stop(); cdn.stop() }
        let error = await #expect(throws: FetchError.self) { try await fetch(api.url("/echo"), .any) }
        #expect(
            error?.kind
                == .redirectRefused(
                    to: cdn.url("/file?key=***"), reason: "it leads to another host with a secret in its URL"))
        #expect(error?.description.contains("s3cret") == false)
        #expect(cdn.requestCount == 0)
    }

    @Test func theSettingIsReadFromDefaultsAndFeeds() throws {
        let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]))
        let config = try loader.load(
            yaml: """
                defaults: { follow_redirects: same_host }
                feeds:
                  - { name: one, adapter: items, url: a.json }
                  - { name: two, adapter: items, url: b.json, follow_redirects: never }
                """, path: "feeds.yaml", directory: "/srv/feeds")
        #expect(config.feeds.map(\.policy.followRedirects) == [.sameHost, .never])
        #expect(FetchPolicy().followRedirects == .any)
        let problems = loader.problems(
            "feeds:\n  - { name: one, adapter: items, url: a.json, follow_redirects: sometimes }\n")
        #expect(
            problems == [
                "feeds.yaml:2:65: error: 'sometimes' is not an accepted value; expected one of: same_host, any, never"
            ])
    }
}
