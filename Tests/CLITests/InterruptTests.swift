import FeedTestSupport
import Foundation
import Testing

/// Ctrl-C during `feedwork run`: the feed in progress rolls back and is recorded as
/// `interrupted` at once, the feed that finished keeps its commit, the command exits 130.
@Suite("feedwork run: Ctrl-C")
struct InterruptTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("interrupt")
    }

    func writeConfig(slowURL: String) throws {
        try Data(#"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#.utf8)
            .write(to: directory.appendingPathComponent("data.json"))
        let yaml = """
            defaults: { concurrency: 1 }
            feeds:
              - { name: quick, adapter: fruit, url: data.json }
            \(PagedItemsFeed.yaml(name: "slow", url: slowURL))
              - { name: later, adapter: fruit, url: data.json }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func theFeedInProgressRollsBackAndIsRecordedInterruptedAtOnce() async throws {
        let server = try PagedItemsFeed.slowServer(delay: .seconds(5))
        try writeConfig(slowURL: server.url("/items"))
        let running = try FeedworkProcess.startCollecting(["run"], in: directory)
        try await server.waitForRequests(2)
        // Counted as the signal goes: a loaded machine may wake this test after a third page.
        let requestsBefore = server.requestCount
        let interruptedAt = Date()
        running.send(SIGINT)
        let result = await running.finish()
        let stopped = Date().timeIntervalSince(interruptedAt)

        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        #expect(stopped < 4, "the request in flight (answered after 5 s) is abandoned (\(stopped)s)")
        #expect(server.requestCount == requestsBefore, "no request after the interrupt")
        #expect(result.stderr.contains("interrupted: rolled back, their rows as before this run: slow"))
        #expect(result.stderr.contains("interrupted: committed before the interrupt: quick"))
        #expect(result.stderr.contains("interrupted: not started: later"))

        let runs = try await FeedworkProcess.run(["runs", "--json"], in: directory)
        let statuses = try #require(
            try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]]
        ).map { "\($0["feed"] ?? "") \($0["status"] ?? "")" }
        #expect(statuses == ["slow interrupted", "quick ok"])
        let items = try await FeedworkProcess.run(["export", "item"], in: directory)
        #expect(items.stdout.isEmpty, "the slow feed's first page was rolled back")
    }
}
