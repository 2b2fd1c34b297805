import FeedTestSupport
import Foundation
import Testing

extension LoopbackServer {
    /// Waits until the server has received `count` requests: a process under test has got that
    /// far. Fails the test after 60 s (a loaded machine starts a process slowly).
    func waitForRequests(_ count: Int) async throws {
        let deadline = Date().addingTimeInterval(60)
        while requestCount < count {
            try #require(Date() < deadline, "the process never reached request \(count)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
