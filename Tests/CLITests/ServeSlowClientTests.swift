import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// `feedwork serve` under many sockets that connect and say nothing, or send their request a
/// byte at a time: they no longer take every connection, and the server closes each of them.
@Suite("feedwork serve under idle and slow sockets")
struct ServeSlowClientTests {
    static let token = "a-token-of-thirty-two-characters"
    let directory: URL

    init() async throws {
        directory = try await ServeProcess.itemsStore("serve-slow")
    }

    @Test func twoHundredIdleAndSlowSocketsLeaveRoomForAuthenticatedRequests() async throws {
        let serve = try FeedworkProcess.startCollecting(
            ["serve", "--port", "0"], in: directory, environment: ["FEEDWORK_SERVE_TOKEN": Self.token])
        defer { serve.stop(SIGTERM) }
        let port = try await ServeProcess.port(of: serve)
        let idle = try (0..<100).map { _ in try RawConnection(port: port) }
        let slow = try (0..<100).map { _ in try RawConnection(port: port) }
        // The slow clients send a header line a second, never the blank line that ends the head.
        let sending = Mutex(true)
        let dribbler = Thread {
            for connection in slow { connection.send("GET /api/feeds HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
            while sending.withLock({ $0 }) {
                for connection in slow { connection.send("X-Slow: 1\r\n") }
                Thread.sleep(forTimeInterval: 1)
            }
        }
        dribbler.start()
        defer { sending.withLock { $0 = false } }

        // Fresh clients with the token are served while every one of those sockets is open.
        for path in ["/api/feeds", "/", "/entities/item", "/healthz"] {
            let answer = try await HTTPGet.get(
                "http://127.0.0.1:\(port)\(path)", headers: ["Authorization: Bearer \(Self.token)"], seconds: 60)
            #expect(answer.status == 200, "\(path) while 200 sockets sat idle or slow: \(answer.status)")
        }
        // And the server closes each idle and slow socket, though the slow ones keep sending.
        let deadline = Date().addingTimeInterval(60)
        var open = (idle + slow).filter { !$0.isClosedByServer }
        while !open.isEmpty, Date() < deadline {
            try await Task.sleep(for: .seconds(0.2))
            open = open.filter { !$0.isClosedByServer }
        }
        #expect(open.isEmpty, "\(open.count) idle or slow sockets still open after 60 s")
    }
}
