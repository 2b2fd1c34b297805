import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// `parallel: N` of `for_each:` and of a child endpoint bounds the child requests in flight at
/// once: a loopback API counts them, holding the first ones until N are in flight together, so
/// the test sees the bound reached without relying on timing, and never exceeded.
@Suite("json adapter: parallel child requests")
struct JSONParallelChildTests {
    /// Counts the child requests in flight, and holds each until `width` have been in flight
    /// together once (or 60 s have passed, when fewer ever are: the count then says so).
    final class InFlightCounter: Sendable {
        private struct State {
            var inFlight = 0
            var most = 0
            var reached = false
        }

        let width: Int
        private let condition = NSCondition()
        private nonisolated(unsafe) var state = State()

        init(width: Int) { self.width = width }

        /// The most child requests that were in flight at once.
        var most: Int {
            condition.lock()
            defer { condition.unlock() }
            return state.most
        }

        func serve(_ reply: () -> LoopbackReply) -> LoopbackReply {
            condition.lock()
            state.inFlight += 1
            state.most = max(state.most, state.inFlight)
            if state.inFlight >= width { state.reached = true }
            condition.broadcast()
            let deadline = Date().addingTimeInterval(60)
            while !state.reached, condition.wait(until: deadline) {}
            condition.unlock()
            let answer = reply()
            condition.lock()
            state.inFlight -= 1
            condition.unlock()
            return answer
        }
    }

    static let orderCount = 12

    static func server(_ counter: InFlightCounter) throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.path == "/orders" {
                let orders = (1...orderCount).map { #"{"id":\#($0)}"# }.joined(separator: ",")
                return .json(#"{"orders":[\#(orders)]}"#)
            }
            let id = request.path.split(separator: "/").dropFirst().first.map(String.init) ?? "0"
            return counter.serve { .json(#"{"lines":[{"line":1,"sku":"SKU-\#(id)"}]}"#) }
        }
    }

    /// The two ways of following parents: `for_each:` over another feed's stored orders, and
    /// a child endpoint (an entity of `entities:` with a `url`) of the orders the pass writes.
    static func yaml(_ server: LoopbackServer, child: String, width: Int) -> String {
        let lines = """
                records: $.lines
                entity: order_line
                key: [order_id, line]
                fields: { order_id: int, line: int, sku: string }
            """
        let orders = """
              - name: orders
                adapter: json
                url: \(server.url("/orders"))
                records: $.orders
                entity: order
                key: id
                fields: { id: int }
            """
        guard child == "for_each" else {
            return """
                feeds:
                \(orders)
                    entities:
                      - url: \(server.url("/orders/{{parent.id}}/lines"))
                        carry: { order_id: id }
                        parallel: \(width)
                    \(lines.replacingOccurrences(of: "\n", with: "\n    "))
                """
        }
        return """
            feeds:
            \(orders)
              - name: order_lines
                adapter: json
                url: \(server.url("/orders/{{parent.id}}/lines"))
                for_each: { entity: order, carry: { order_id: id }, parallel: \(width) }
            \(lines)
            """
    }

    @Test(arguments: [("for_each", 1), ("for_each", 3), ("for_each", 5), ("entities", 1), ("entities", 4)])
    func neverMoreThanParallelChildRequestsAreInFlightAndParallelAreReached(child: String, width: Int) async throws {
        let counter = InFlightCounter(width: width)
        let server = try Self.server(counter)
        defer { server.stop() }
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry, yaml: Self.yaml(server, child: child, width: width))
        let report = try await harness.run()
        #expect(report.feeds.allSatisfy { $0.status == .ok }, "\(report.feeds.map { $0.error ?? "" })")
        #expect(try await harness.count("order_line") == Self.orderCount)
        #expect(counter.most == width)
    }
}
