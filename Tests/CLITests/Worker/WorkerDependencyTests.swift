import FeedEngine
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// `feedwork worker` with a feed that follows another's rows (`for_each:`): due together, the
/// child's pass starts only once its parent's has ended.
@Suite("feedwork worker: feeds that depend on others")
struct WorkerDependencyTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("worker-dependency")
    }

    /// Orders answered after a second (so a child started beside them would find no order
    /// stored), or a page that is not JSON while `ordersFail`; one line per order.
    final class Shop: Sendable {
        let ordersFail = Mutex(false)

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            if request.path == "/orders" {
                // Not JSON: a 5xx would be served from the cache, stale, and not fail the pass.
                guard !ordersFail.withLock({ $0 }) else { return .text("<html>maintenance</html>") }
                var reply = LoopbackReply.json(#"{"orders":[{"id":1},{"id":2},{"id":3}]}"#)
                reply.delay = .seconds(1)
                return reply
            }
            if request.path == "/sched" { return .json(#"{"items":[{"id":1}]}"#) }
            let id = request.path.split(separator: "/").dropFirst().first.map(String.init) ?? "0"
            return .json(#"{"lines":[{"line":1,"sku":"SKU-\#(id)"}]}"#)
        }
    }

    /// The child first in the file, room for both; `schedule` is each one's `every:` line.
    func writeConfig(_ server: LoopbackServer, schedule: String, extra: String = "") throws {
        let yaml = """
            defaults: { concurrency: 4, spread: false }
            feeds:
              - name: order-lines
                adapter: json
                url: \(server.url("/orders/{{parent.id}}/lines"))
            \(schedule)
                for_each: { entity: order, carry: { order_id: id } }
                records: $.lines
                entity: order_line
                key: [order_id, line]
                fields: { order_id: int, line: int, sku: string }
              - name: orders
                adapter: json
                url: \(server.url("/orders"))
            \(schedule)
                retries: 0
                records: $.orders
                entity: order
                key: id
                fields: { id: int }
            \(extra)
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func aChildFeedDueWithItsParentStartsOnceTheParentsPassEnded() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let shop = Shop()
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        try writeConfig(server, schedule: "    every: 1h")
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        try await WorkerRun.waitForFinishedRun(in: directory, of: "order-lines")
        worker.send(SIGTERM)
        let stopped = await worker.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let runs = try await WorkerRun.all(in: directory)
        let parent = try #require(runs.first { $0.feed == "orders" }, "\(runs)")
        let child = try #require(runs.first { $0.feed == "order-lines" }, "\(runs)")
        let parentEnd = try #require(parent.finished)
        #expect(child.started >= parentEnd, "the child started at \(child.started), its parent ended at \(parentEnd)")
        #expect(child.status == "ok" && child.inserted == 3, "\(child)")
        #expect(server.requests.filter { $0.path.hasSuffix("/lines") }.count == 3)
    }

    /// Due together, the child of a parent whose pass failed is skipped, naming its parent,
    /// rather than run on the rows the parent's earlier passes left.
    @Test func aChildDueWithAParentWhosePassFailedIsSkipped() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let shop = Shop()
        shop.ordersFail.withLock { $0 = true }
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        try writeConfig(server, schedule: "    every: 1h")
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        let output = CollectedOutput(worker.out)
        _ = CollectedOutput(worker.err)
        try await output.wait(for: "[orders] failed")
        try await output.wait(for: "[order-lines] skipped")
        worker.send(SIGTERM)
        await worker.process.exited()
        #expect(worker.process.terminationStatus == 0)
        let text = output.text.withLock { $0 }
        #expect(text.contains("skipped: feed 'orders', which it depends on, failed"), "\(text)")
        #expect(server.requests.filter { $0.path.hasSuffix("/lines") }.isEmpty, "no line was asked for")
        let runs = try await WorkerRun.all(in: directory)
        #expect(!runs.contains { $0.feed == "order-lines" }, "a skipped pass has no run: \(runs)")
    }

    /// `feedwork run` hands its feeds to the worker holding the store, which keeps their order
    /// and skips the child of a parent that failed.
    @Test func aRunHandedToTheWorkerRunsTheParentFirstAndSkipsTheChildOfAFailedOne() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let shop = Shop()
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let sched = """
              - name: sched
                adapter: json
                url: \(server.url("/sched"))
                every: 1h
                records: items
                entity: item
                key: id
                fields: { id: int }
            """
        try writeConfig(server, schedule: "", extra: sched)
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        try await WorkerRun.waitForFinishedRun(in: directory, of: "sched")
        let feeds = ["run", "--feed", "order-lines", "--feed", "orders", "--json"]

        let first = try await FeedworkProcess.run(feeds, in: directory)
        #expect(first.stderr.contains("holds the store"), "\(first.stderr)")
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any], "\(first.stdout)")
        let lines = try #require(
            (report["feeds"] as? [[String: Any]])?.first { $0["feed"] as? String == "order-lines" })
        #expect((lines["counts"] as? [String: Any])?["inserted"] as? Int == 3, "\(lines)")
        #expect(server.requests.filter { $0.path.hasSuffix("/lines") }.count == 3)

        shop.ordersFail.withLock { $0 = true }
        let second = try await FeedworkProcess.run(feeds, in: directory)
        #expect(second.status == 1, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains(#""skipped""#), "\(second.stdout)")
        #expect(second.stdout.contains("skipped: feed 'orders', which it depends on, failed"), "\(second.stdout)")
        #expect(server.requests.filter { $0.path.hasSuffix("/lines") }.count == 3, "no line was asked for again")
        worker.send(SIGTERM)
        let stopped = await worker.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }
}
