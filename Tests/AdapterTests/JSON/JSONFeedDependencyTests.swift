import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// A feed that reads another's rows waits for it: `for_each:` over an entity makes the feed
/// depend on the feeds writing that entity, `depends_on:` names feeds outright, one run starts
/// a feed once the feeds it depends on have ended (and skips it when one did not commit), and
/// cycles are refused where they are written.
@Suite("json adapter: feeds that depend on other feeds")
struct JSONFeedDependencyTests {
    /// Order lines listed before their orders, so that a run in config order would follow no
    /// order at all: the store holds none before the orders' pass. `first` goes before both
    /// feeds, `extra` after the orders' keys.
    static func harness(_ server: LoopbackServer, concurrency: Int = 4, first: String = "", extra: String = "")
        throws -> FeedHarness
    {
        try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: "defaults: { concurrency: \(concurrency) }\nfeeds:\n\(first)\n"
                + JSONForEachTests.linesFeed(server) + JSONForEachTests.ordersFeed(server, extra: extra))
    }

    @Test func forEachDependsOnTheFeedsWritingItsParentEntity() throws {
        let server = try LoopbackServer { _ in .status(404) }
        defer { server.stop() }
        let config = try Self.harness(server).config()
        #expect(config.feed(named: "order_lines")?.dependsOn == ["orders"])
        #expect(config.feed(named: "orders")?.dependsOn == [])
    }

    @Test(arguments: [1, 4])
    func oneRunStartsTheChildFeedOnceItsParentFeedEnded(concurrency: Int) async throws {
        let shop = JSONForEachTests.Shop()
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let harness = try Self.harness(server, concurrency: concurrency)
        let report = try await harness.run()
        #expect(report.feeds.map(\.status) == [.ok, .ok], "\(report.feeds.map { $0.error ?? "" })")
        #expect(report.feeds.first?.hasNote("for_each: followed 3 order rows") == true, "\(report.feeds)")
        #expect(server.requests.first?.path == "/orders")
        #expect(try await harness.count("order_line") == 6)
    }

    @Test func aFeedWaitsForTheFeedsItNamesInDependsOn() async throws {
        let shop = JSONForEachTests.Shop()
        let server = try LoopbackServer { request in
            request.path == "/audit" ? .json(#"{"checks":[{"id":1}]}"#) : shop.reply(request)
        }
        defer { server.stop() }
        let audit = """
              - name: audit
                adapter: json
                url: \(server.url("/audit"))
                depends_on: [order_lines]
                records: $.checks
                entity: check
                key: id
                fields: { id: int }
            """
        // With audit first in the file, config order alone would run it first.
        let harness = try Self.harness(server, concurrency: 1, first: audit)
        let config = try harness.config()
        #expect(config.feeds.map(\.name) == ["audit", "order_lines", "orders"])
        #expect(config.feed(named: "audit")?.dependsOn == ["order_lines"])
        let report = try await harness.run()
        #expect(report.feeds.allSatisfy { $0.status == .ok }, "\(report.feeds.map { $0.error ?? "" })")
        let paths = server.requests.map(\.path)
        #expect(paths.first == "/orders" && paths.last == "/audit", "\(paths)")
    }

    @Test func aFailedParentFeedSkipsItsChildWithANote() async throws {
        let server = try LoopbackServer { request in
            request.path == "/orders" ? .json(#"{"error":"maintenance"}"#, status: 503) : .status(404)
        }
        defer { server.stop() }
        let harness = try Self.harness(server)
        let report = try await harness.run()
        #expect(!report.succeeded)
        let lines = try #require(report.feeds.first { $0.feed == "order_lines" })
        let orders = try #require(report.feeds.first { $0.feed == "orders" })
        #expect(orders.status == .failed)
        #expect(lines.status == .skipped)
        #expect(lines.run == nil)
        #expect(lines.hasNote("skipped: feed 'orders', which it depends on, failed"), "\(lines.notes)")
        #expect(server.requests.map(\.path) == ["/orders"], "no line was asked for")
        // Alone, the child runs as before, on the parents the store holds (none yet).
        let alone = try await harness.run(feeds: ["order_lines"])
        #expect(alone.feeds.first?.status == .ok)
    }

    @Test func cyclesAndUnknownNamesAreRefusedWhereTheyAreWritten() throws {
        let server = try LoopbackServer { _ in .status(404) }
        defer { server.stop() }
        // orders names order_lines, which follows orders' entity: a cycle, at depends_on.
        let harness = try Self.harness(server, extra: "    depends_on: order_lines")
        let text = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        let dependsLine = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains("depends_on") }) + 1
        do {
            _ = try harness.config()
            Issue.record("a cycle was accepted")
        } catch let error as ConfigError {
            let problem = try #require(error.problems.first { $0.message.contains("cycle") }, "\(error)")
            #expect(problem.message.contains("order_lines -> orders -> order_lines"), "\(problem.message)")
            #expect(problem.location.line == dependsLine, "\(problem.location)")
            #expect(problem.location.column == 17, "\(problem.location)")
            #expect(error.problems.count == 1, "\(error)")
        }
        for (value, message) in [
            ("ordrs", "depends_on names no feed 'ordrs'; did you mean 'orders'?"),
            ("[orders]", "feed 'orders' cannot depend on itself"),
        ] {
            try harness.setConfig(
                text.replacingOccurrences(of: "depends_on: order_lines", with: "depends_on: \(value)"))
            do {
                _ = try harness.config()
                Issue.record("depends_on: \(value) was accepted")
            } catch let error as ConfigError {
                #expect(error.problems.map(\.message) == [message], "\(error)")
                #expect(error.problems.first?.location.line == dependsLine)
            }
        }
    }

    @Test func aFeedFollowingItsOwnEntityIsACycleAtItsForEach() throws {
        let server = try LoopbackServer { _ in .status(404) }
        defer { server.stop() }
        let feed = JSONForEachTests.linesFeed(server, forEach: "{ entity: order_line, carry: { order_id: order_id } }")
        let harness = try FeedHarness(registry: JSONFeedTest.registry, yaml: "feeds:\n" + feed)
        let text = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        let forEachLine = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains("for_each") }) + 1
        do {
            _ = try harness.config()
            Issue.record("a feed following its own entity was accepted")
        } catch let error as ConfigError {
            #expect(
                error.problems.map(\.message) == [
                    "feed 'order_lines' reads its own entity 'order_line' as parents, a cycle: each pass would follow the rows its last pass wrote; follow another feed's entity, or request a child per record with entities: and a url"
                ], "\(error)")
            #expect(error.problems.first?.location.line == forEachLine, "\(error)")
        }
    }
}
