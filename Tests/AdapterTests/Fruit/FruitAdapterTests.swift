import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import FruitFeed
import Testing

@Suite("Fruit adapter")
struct FruitAdapterTests {
    static let registry = AdapterRegistry([FruitAdapter.self])

    func harness(body: Data, extra: String = "", driver: HarnessStore = .sqlite) throws -> FeedHarness {
        try FeedHarness(
            registry: Self.registry,
            yaml: """
                feeds:
                  - name: fruit
                    adapter: fruit
                    url: data.json
                    max_reject_ratio: 1  # these tests reject most records on purpose
                \(extra)
                """, files: ["data.json": body], store: driver)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realPayloadGivesNineFruitsWithExactValues() async throws {
        let harness = try harness(body: try RealFixtures.data("fruit/bbc-data.json"))
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok)
        #expect(report.feeds.first?.counts.inserted == 9)
        let rows = try await harness.rows(
            "SELECT type, price, currency, weight, price_display, weight_display FROM fruit ORDER BY type")
        #expect(rows.count == 9)
        let apple = try #require(rows.first { $0["type"] == .text("apple") })
        #expect(apple["price"] == .integer(149))
        #expect(apple["currency"] == .text("GBP"))
        #expect(apple["weight"] == .integer(120))
        #expect(apple["price_display"] == .text("£1.49"))
        #expect(apple["weight_display"] == .text("0.12 kg"))
        let pitaya = try #require(rows.first { $0["type"] == .text("pitaya") })
        #expect(pitaya["price"] == .integer(599))
        #expect(pitaya["price_display"] == .text("£5.99"))
        let types = rows.compactMap { if case .text(let t)? = $0["type"] { t } else { nil } }
        #expect(types == ["apple", "banana", "blueberry", "kiwi", "kumquat", "orange", "pear", "pitaya", "strawberry"])
    }

    @Test(arguments: HarnessStore.available)
    func malformedItemsAreRejectedWithReasonsWhileValidOnesLand(driver: HarnessStore) async throws {
        let harness = try harness(body: try TestFixtures.data("fruit/malformed.json"), driver: driver)
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .okWithRejects)
        #expect(feed.counts.inserted == 1)
        #expect(feed.counts.rejected == 7)
        let apple = try #require(try await harness.rows("SELECT price, weight FROM fruit WHERE type = 'apple'").first)
        #expect(apple["price"] == .integer(159), "the last duplicate wins")
        #expect(feed.notes.contains("1 duplicate fruit key(s) in this pass ('apple'); the last one wins"))
        let reasons = try await harness.rows("SELECT path, reason FROM _rejects ORDER BY id").compactMap {
            row -> String? in
            if case .text(let path)? = row["path"], case .text(let reason)? = row["reason"] {
                "\(path): \(reason)"
            } else {
                nil
            }
        }
        #expect(reasons.contains("$.fruit[1].price: price must be a whole number, found a string"))
        #expect(reasons.contains("$.fruit[2].price: price must be a whole number, found 12.5"))
        #expect(reasons.contains("$.fruit[3].price: price is missing"))
        #expect(reasons.contains("$.fruit[4].price: price must not be negative, found -3"))
        #expect(reasons.contains("$.fruit[5].type: type is empty"))
        #expect(reasons.contains("$.fruit[6].weight: weight is missing"))
        #expect(reasons.contains("$.fruit[7]: expected an object, found a list"))
    }

    @Test(arguments: HarnessStore.available)
    func aBodyWithoutAFruitListFailsTheFeedAndKeepsEarlierRows(driver: HarnessStore) async throws {
        let harness = try harness(
            body: Data(#"{"fruit":[{"type":"apple","price":1,"weight":2}]}"#.utf8), driver: driver)
        _ = try await harness.run()
        try harness.write("data.json", Data(#"{"fruits":[]}"#.utf8))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("$.fruit") == true)
        #expect(try await harness.count("fruit") == 1)
    }

    @Test(arguments: HarnessStore.available)
    func statsEventsAreDeliveredWithTheRightQuery(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in .text("") }
        let harness = try harness(
            body: Data(#"{"fruit":[{"type":"apple","price":1,"weight":2}]}"#.utf8),
            extra: "    stats_url: \(server.url("/stats"))", driver: driver)
        let report = try await harness.run()
        #expect(report.feeds.first?.outboxDelivered == 2)
        let events = server.requests.map { $0.query("event") ?? "" }
        #expect(events == ["load", "display"])
        for request in server.requests {
            #expect(request.path == "/stats")
            #expect(Int(request.query("data") ?? "") != nil, "data is a number of milliseconds")
        }
    }

    @Test(arguments: HarnessStore.available)
    func statsEventsWaitWhileTheServerIsDownAndAreDeliveredOnceWhenItIsBack(driver: HarnessStore) async throws {
        let server = try LoopbackServer(start: false) { _ in .text("") }
        try server.start()
        let port = server.port
        server.stop()
        let harness = try harness(
            body: Data(#"{"fruit":[{"type":"apple","price":1,"weight":2}]}"#.utf8),
            extra: "    stats_url: http://127.0.0.1:\(port)/stats\n    retries: 0", driver: driver)
        let offline = try await harness.run()
        #expect(offline.feeds.first?.outboxPending == 2)
        #expect(try await harness.count("_outbox") == 2)

        let back = try LoopbackServer(start: false) { _ in .text("") }
        try back.start(port: port)
        let online = try await harness.run()
        #expect(online.feeds.first?.outboxPending == 0)
        // The two queued events plus this pass's two, each exactly once.
        #expect(back.requestCount == 4)
        let third = try await harness.run()
        #expect(third.feeds.first?.outboxDelivered == 2)
        #expect(back.requestCount == 6)
    }

    @Test(arguments: HarnessStore.available)
    func aFailedPassRecordsAnErrorEvent(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in .text("") }
        let harness = try harness(
            body: Data("not json".utf8), extra: "    stats_url: \(server.url("/stats"))", driver: driver)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .failed)
        #expect(server.requests.map { $0.query("event") } == ["error"])
        #expect(server.requests.first?.query("data")?.contains("invalid JSON") == true)
    }
}
