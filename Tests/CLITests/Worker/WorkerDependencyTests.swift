import FeedEngine
import FeedTestSupport
import Foundation
import Testing

/// `feedwork worker` with a feed that follows another's rows (`for_each:`): due together, the
/// child's pass starts only once its parent's has ended.
@Suite("feedwork worker: feeds that depend on others")
struct WorkerDependencyTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("worker-dependency")
    }

    @Test func aChildFeedDueWithItsParentStartsOnceTheParentsPassEnded() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // The orders answer slowly, so a child started beside them would find no order stored.
        let server = try LoopbackServer { request in
            if request.path == "/orders" {
                var reply = LoopbackReply.json(#"{"orders":[{"id":1},{"id":2},{"id":3}]}"#)
                reply.delay = .seconds(1)
                return reply
            }
            let id = request.path.split(separator: "/").dropFirst().first.map(String.init) ?? "0"
            return .json(#"{"lines":[{"line":1,"sku":"SKU-\#(id)"}]}"#)
        }
        defer { server.stop() }
        // The child first in the file, both due at once, room for both.
        let yaml = """
            defaults: { concurrency: 4 }
            feeds:
              - name: order-lines
                adapter: json
                url: \(server.url("/orders/{{parent.id}}/lines"))
                every: 1h
                for_each: { entity: order, carry: { order_id: id } }
                records: $.lines
                entity: order_line
                key: [order_id, line]
                fields: { order_id: int, line: int, sku: string }
              - name: orders
                adapter: json
                url: \(server.url("/orders"))
                every: 1h
                records: $.orders
                entity: order
                key: id
                fields: { id: int }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        // `runs` fails until the worker has made the store.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let child = try await FeedworkProcess.runOffPool(
                ["runs", "--feed", "order-lines", "--json"], in: directory)
            if child.status == 0, child.stdout.contains(#""finished_at""#) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        worker.send(SIGTERM)
        let stopped = worker.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let runs = try WorkerRun.all(in: directory)
        let parent = try #require(runs.first { $0.feed == "orders" }, "\(runs)")
        let child = try #require(runs.first { $0.feed == "order-lines" }, "\(runs)")
        let parentEnd = try #require(parent.finished)
        #expect(child.started >= parentEnd, "the child started at \(child.started), its parent ended at \(parentEnd)")
        #expect(child.status == "ok" && child.inserted == 3, "\(child)")
        #expect(server.requests.filter { $0.path.hasSuffix("/lines") }.count == 3)
    }
}
