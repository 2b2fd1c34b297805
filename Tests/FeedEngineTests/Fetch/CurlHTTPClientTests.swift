import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("CurlHTTPClient")
struct CurlHTTPClientTests {
    let client = CurlHTTPClient.shared

    @Test func postSendsMethodHeadersAndBody() async throws {
        let server = try LoopbackServer { request in
            .json(#"{"method":"\#(request.method)","body":\#(request.bodyText)}"#, status: 201)
        }
        defer { server.stop() }
        let response = try await client.perform(
            HTTPRequest(
                url: server.url("/stats"), method: "POST", headers: [HTTPHeader("Content-Type", "application/json")],
                body: Data(#"{"n":1}"#.utf8)))
        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"method":"POST","body":{"n":1}}"#)
        #expect(server.requests.first?.header("content-type") == "application/json")
    }

    @Test func requestsTwoAtATimeKeepAFewConnectionsWhicheverThreadsRunThem() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        // A client of its own, so that no other test's transfers reach its threads.
        let client = CurlHTTPClient(workers: 8)
        for _ in 1...20 {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 1...2 { group.addTask { try await client.perform(HTTPRequest(url: server.url("/"))).status } }
                for try await status in group { #expect(status == 200) }
            }
        }
        #expect(server.requestCount == 40)
        // With a pool of connections for each thread, the eight threads opened one each.
        #expect(server.connectionCount <= 3, "\(server.connectionCount) connections")
    }

    @Test func errorStatusIsAResponse() async throws {
        let server = try LoopbackServer { _ in .status(500) }
        defer { server.stop() }
        let response = try await client.perform(HTTPRequest(url: server.url("/")))
        #expect(response.status == 500)
    }

    @Test func headersComeFromTheLastHopOnly() async throws {
        let server = try LoopbackServer { request in
            request.path == "/start"
                ? .redirect(to: "/end").header("X-Hop", "first") : .json("{}").header("X-End", "yes")
        }
        defer { server.stop() }
        let response = try await client.perform(HTTPRequest(url: server.url("/start")))
        #expect(response.headers["x-hop"] == nil)
        #expect(response.headers["x-end"] == "yes")
        #expect(response.effectiveURL == server.url("/end"))
    }

    @Test func nonHTTPSchemesAreRefused() async throws {
        await #expect(throws: HTTPClientError.self) {
            try await client.perform(HTTPRequest(url: "file:///etc/hostname"))
        }
    }
}

extension CurlHTTPClientTests {
    @Test func putWithAnEmptyBodySendsNoBytes() async throws {
        let server = try LoopbackServer { request in .text("\(request.method) \(request.body.count)") }
        defer { server.stop() }
        let response = try await client.perform(HTTPRequest(url: server.url("/"), method: "PUT", body: Data()))
        #expect(String(decoding: response.body, as: UTF8.self) == "PUT 0")
    }
}
