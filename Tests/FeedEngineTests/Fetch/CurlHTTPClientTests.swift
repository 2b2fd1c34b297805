import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

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

    @Test func aClientStartsNoThreadBeforeItsFirstTransfer() {
        #expect(CurlHTTPClient(workers: 8).workerCount == 0)
    }

    @Test func transfersOneAfterAnotherShareOneThread() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let client = CurlHTTPClient(workers: 8)
        for _ in 1...5 {
            #expect(try await client.perform(HTTPRequest(url: server.url("/"))).status == 200)
            // As between a feed's pages: the worker is back waiting when the next one comes.
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(client.workerCount == 1)
    }

    @Test func transfersAtOnceGetAThreadEachUpToTheLimit() async throws {
        // A request is answered once four are in progress at the same time, or after 5 s.
        let gate = Gate(opensAt: 4)
        let server = try LoopbackServer { _ in .json(gate.arriveAndWait() ? #""together""# : #""alone""#) }
        defer { server.stop() }
        let client = CurlHTTPClient(workers: 4)
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 1...6 {
                group.addTask {
                    String(decoding: try await client.perform(HTTPRequest(url: server.url("/"))).body, as: UTF8.self)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies == Array(repeating: #""together""#, count: 6))
        #expect(client.workerCount == 4)
    }

    /// Holds callers until `opensAt` of them have arrived.
    private final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var arrived = 0  // guarded by `condition`
        private let opensAt: Int

        init(opensAt: Int) { self.opensAt = opensAt }

        /// Whether the gate opened within 60 s of this caller's arrival.
        func arriveAndWait() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            arrived += 1
            condition.broadcast()
            let deadline = Date().addingTimeInterval(60)
            while arrived < opensAt, condition.wait(until: deadline) {}
            return arrived >= opensAt
        }
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
