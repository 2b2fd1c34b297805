import FeedTestSupport
import Foundation
import Testing

extension LoopbackServer {
    /// Waits until the server has received `count` requests: a process under test has got that
    /// far. Fails the test after 20 s.
    func waitForRequests(_ count: Int) throws {
        let deadline = Date().addingTimeInterval(20)
        while requestCount < count {
            try #require(Date() < deadline, "the process never reached request \(count)")
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
