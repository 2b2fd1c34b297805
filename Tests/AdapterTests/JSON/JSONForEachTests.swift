import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// `for_each:`: a feed of order lines requested once per stored order, on a loopback API with
/// `/orders` and `/orders/{id}/lines`.
@Suite("json adapter: for_each (parent -> child endpoints)")
struct JSONForEachTests {
    /// The orders the API lists, as id to status; the lines of order N are N lines.
    final class Shop: Sendable {
        let orders = Shared<[Int: String]>([1: "open", 2: "open", 3: "open"])
        /// Orders whose lines answer 404.
        let missing = Shared<Set<Int>>([])

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            if request.path == "/orders" {
                let list = orders.value.sorted { $0.key < $1.key }.map { #"{"id":\#($0.key),"status":"\#($0.value)"}"# }
                return .json(#"{"orders":[\#(list.joined(separator: ","))]}"#)
            }
            let parts = request.path.split(separator: "/")
            guard parts.count == 3, parts[0] == "orders", parts[2] == "lines", let id = Int(parts[1]),
                orders.value[id] != nil, !missing.value.contains(id)
            else { return .json(#"{"error":"no such order"}"#, status: 404) }
            let lines = (1...id).map { #"{"line":\#($0),"sku":"SKU-\#(id)-\#($0)"}"# }
            return .json(#"{"lines":[\#(lines.joined(separator: ","))]}"#)
        }
    }

    static func harness(
        _ server: LoopbackServer, store: HarnessStore, forEach: String = "{ entity: order, carry: { order_id: id } }",
        url: String = "/orders/{{parent.id}}/lines", extra: String = ""
    ) throws -> FeedHarness {
        try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: "feeds:\n" + ordersFeed(server) + linesFeed(server, forEach: forEach, url: url, extra: extra),
            store: store)
    }

    /// The `orders` feed of `/orders`, as an item of `feeds:`.
    static func ordersFeed(_ server: LoopbackServer, extra: String = "") -> String {
        """
          - name: orders
            adapter: json
            url: \(server.url("/orders"))
            retries: 0
            records: $.orders
            entity: order
            key: id
            fields: { id: int, status: string }
        \(extra)

        """
    }

    /// The `order_lines` feed, one request per stored order, as an item of `feeds:`; `extra`
    /// lines go after `for_each`.
    static func linesFeed(
        _ server: LoopbackServer, forEach: String = "{ entity: order, carry: { order_id: id } }",
        url: String = "/orders/{{parent.id}}/lines", extra: String = ""
    ) -> String {
        """
          - name: order_lines
            adapter: json
            url: \(server.url(url))
            retries: 0
            for_each: \(forEach)
        \(extra)
            records: $.lines
            entity: order_line
            key: [order_id, line]
            fields: { order_id: int, line: int, sku: string }

        """
    }

    /// The paths of the line requests the server received, in order of the orders' ids.
    static func linePaths(_ server: LoopbackServer) -> [String] {
        server.requests.map(\.path).filter { $0.hasSuffix("/lines") }.sorted()
    }

    static func lines(_ harness: FeedHarness) async throws -> [String] {
        try await harness.rows("SELECT order_id, line, sku FROM order_line ORDER BY order_id, line").map { row in
            "\(row["order_id"]?.description ?? "")/\(row["line"]?.description ?? ""): \(row["sku"]?.description ?? "")"
        }
    }

    @Test(arguments: HarnessStore.available)
    func everyLineIsStoredWithItsOrderKey(_ store: HarnessStore) async throws {
        let shop = Shop()
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let harness = try Self.harness(
            server, store: store, forEach: "{ entity: order, carry: { order_id: id }, parallel: 2 }")
        _ = try await harness.run(feeds: ["orders"])
        let report = try await harness.run(feeds: ["order_lines"])
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok, "\(feed.error ?? "")")
        #expect(feed.hasNote("for_each: followed 3 order rows"), "\(feed.notes)")
        #expect(Self.linePaths(server) == ["/orders/1/lines", "/orders/2/lines", "/orders/3/lines"])
        await #expect(
            try Self.lines(harness) == [
                "1/1: SKU-1-1", "2/1: SKU-2-1", "2/2: SKU-2-2", "3/1: SKU-3-1", "3/2: SKU-3-2", "3/3: SKU-3-3",
            ])
    }

    @Test(arguments: HarnessStore.available)
    func anIncrementalPassFollowsOnlyTheOrdersWrittenSinceTheLast(_ store: HarnessStore) async throws {
        let shop = Shop()
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let harness = try Self.harness(
            server, store: store, forEach: "{ entity: order, carry: { order_id: id }, incremental: true }")
        // Before the parents' feed ran: nothing to follow, and the report says why.
        let early = try await harness.run(feeds: ["order_lines"])
        #expect(early.feeds.first?.status == .ok, "\(early.feeds.first?.error ?? "")")
        #expect(early.feeds.first?.hasNote("the store holds no order rows yet") == true)
        _ = try await harness.run(feeds: ["orders"])
        _ = try await harness.run(feeds: ["order_lines"])
        #expect(Self.linePaths(server).count == 3)

        // Order 2 changes and order 4 is new: only they are followed.
        shop.orders.set([1: "open", 2: "shipped", 3: "open", 4: "open"])
        _ = try await harness.run(feeds: ["orders"])
        let before = server.requestCount
        let report = try await harness.run(feeds: ["order_lines"])
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        let followed = server.requests.dropFirst(before).map(\.path).sorted()
        #expect(followed == ["/orders/2/lines", "/orders/4/lines"])
        await #expect(try Self.lines(harness).filter { $0.hasPrefix("4/") }.count == 4)

        // Nothing changed: no line request at all.
        let idle = server.requestCount
        _ = try await harness.run(feeds: ["order_lines"])
        #expect(server.requestCount == idle)

        // --full-refresh follows every order again.
        var engine = try await Engine.open(try harness.config())
        engine.fullRefresh = true
        let full = server.requestCount
        _ = await engine.run(feeds: ["order_lines"])
        #expect(server.requests.dropFirst(full).count == 4)
    }

    @Test(arguments: HarnessStore.available)
    func anOrderWhoseLinesAre404IsARejectNotAFailedPass(_ store: HarnessStore) async throws {
        let shop = Shop()
        shop.missing.set([2])
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let harness = try Self.harness(server, store: store)
        _ = try await harness.run(feeds: ["orders"])
        let report = try await harness.run(feeds: ["order_lines"])
        let feed = try #require(report.feeds.first)
        #expect(feed.status != .failed, "\(feed.error ?? "")")
        await #expect(try Self.lines(harness).map { $0.prefix(2) } == ["1/", "3/", "3/", "3/"])
        let rejects = try await JSONFeedTest.rejects(harness)
        #expect(rejects.count == 1)
        #expect(rejects.first?.contains("order 2") == true && rejects.first?.contains("404") == true, "\(rejects)")
    }

    @Test func anOrderWhoseLinesAre404CanBeANote() async throws {
        let shop = Shop()
        shop.missing.set([3])
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let harness = try Self.harness(
            server, store: .sqlite, forEach: "{ entity: order, carry: { order_id: id }, on_not_found: note }")
        _ = try await harness.run(feeds: ["orders"])
        let report = try await harness.run(feeds: ["order_lines"])
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok, "\(feed.error ?? "")")
        #expect(feed.hasNote("1 order answered 404 Not Found: 3"), "\(feed.notes)")
        await #expect(try JSONFeedTest.rejects(harness).isEmpty)
        #expect(try await harness.count("order_line") == 3)
    }

    @Test func parentValuesFillParamsAndHeadersAndWhereChoosesParents() async throws {
        let shop = Shop()
        let server = try LoopbackServer { request in
            guard request.path == "/lines" else { return shop.reply(request) }
            let id = request.query("order") ?? ""
            #expect(request.header("x-order") == "order-\(id)")
            return .json(#"{"lines":[{"line":1,"sku":"via-query-\#(id)"}]}"#)
        }
        defer { server.stop() }
        shop.orders.set([1: "open", 2: "shipped", 3: "open"])
        let harness = try Self.harness(
            server, store: .sqlite, forEach: "{ entity: order, carry: { order_id: id }, where: status=open }",
            url: "/lines",
            extra: "    params: { order: \"{{parent.id}}\" }\n    headers: { X-Order: \"order-{{parent.id}}\" }")
        _ = try await harness.run(feeds: ["orders"])
        let report = try await harness.run(feeds: ["order_lines"])
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(server.requests.filter { $0.path == "/lines" }.compactMap { $0.query("order") }.sorted() == ["1", "3"])
        await #expect(try Self.lines(harness) == ["1/1: via-query-1", "3/1: via-query-3"])
    }

    /// Parents are an entity's rows, whichever feed wrote them: `where: _feed=NAME` follows
    /// one feed's only, with no key of its own.
    @Test(arguments: HarnessStore.available)
    func whereUnderscoreFeedFollowsTheRowsOfOneFeedOfASharedEntity(_ store: HarnessStore) async throws {
        let shop = Shop()
        let server = try LoopbackServer { request in
            guard request.path == "/archive" else { return shop.reply(request) }
            return .json(#"{"orders":[{"id":7,"status":"open"}]}"#)
        }
        defer { server.stop() }
        let archive = Self.ordersFeed(server).replacingOccurrences(of: "name: orders", with: "name: archived-orders")
            .replacingOccurrences(of: server.url("/orders"), with: server.url("/archive"))
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: "feeds:\n" + Self.ordersFeed(server) + archive
                + Self.linesFeed(server, forEach: "{ entity: order, carry: { order_id: id }, where: _feed=orders }"),
            store: store)
        let report = try await harness.run()
        #expect(report.feeds.map(\.status) == [.ok, .ok, .ok], "\(report.feeds.map { $0.error ?? "" })")
        #expect(try await harness.count("order") == 4, "both feeds wrote orders")
        #expect(Self.linePaths(server) == ["/orders/1/lines", "/orders/2/lines", "/orders/3/lines"])
    }

    @Test func badForEachBlocksAreRefusedWithTheirPlace() throws {
        let server = try LoopbackServer { _ in .status(404) }
        defer { server.stop() }
        for (forEach, url, message) in [
            ("{ entity: order, carry: { order_no: id } }", "/orders/{{parent.id}}/lines", "'order_no' is not a field"),
            ("{ entity: order, parallel: 0 }", "/orders/{{parent.id}}/lines", "parallel must be between 1 and 16"),
            ("{ entity: order, on_not_found: fail }", "/orders/{{parent.id}}/lines", "reject or note"),
        ] {
            let harness = try Self.harness(server, store: .sqlite, forEach: forEach, url: url)
            #expect(throws: (any Error).self) { try harness.config() }
            do { _ = try harness.config() } catch { #expect("\(error)".contains(message), "\(error)") }
        }
        let noForEach = try JSONFeedTest.harness(
            url: server.url("/orders/{{parent.id}}/lines"),
            "    records: $\n    entity: x\n    key: id\n    fields: { id: int }")
        do {
            _ = try noForEach.config()
            Issue.record("{{parent.id}} without for_each was accepted")
        } catch {
            #expect("\(error)".contains("{{parent.id}} needs a for_each: block"), "\(error)")
        }
    }

    /// `entities:` with a `url`: the lines of each order the same pass writes.
    static func sameFeed(_ server: LoopbackServer, store: HarnessStore, lines: String = "/orders/{{parent.id}}/lines")
        throws -> FeedHarness
    {
        try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: """
                feeds:
                  - name: orders
                    adapter: json
                    url: \(server.url("/orders"))
                    retries: 0
                    records: $.orders
                    entity: order
                    key: id
                    fields: { id: int, status: string, updated: int }
                    incremental: { cursor_path: updated, param: since }
                    entities:
                      - url: \(server.url(lines))
                        carry: { order_id: id }
                        parallel: 2
                        records: $.lines
                        entity: order_line
                        key: [order_id, line]
                        fields: { order_id: int, line: int, sku: string }
                """, store: store)
    }

    /// Orders with an `updated` stamp, listed with `since` as the API filters them.
    final class StampedShop: Sendable {
        let shop = Shop()
        let updated = Shared<[Int: Int]>([1: 1, 2: 2, 3: 3])

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            guard request.path == "/orders" else { return shop.reply(request) }
            let since = request.query("since").flatMap { Int($0) } ?? 0
            let list = updated.value.filter { $0.value > since }.sorted { $0.key < $1.key }.map {
                #"{"id":\#($0.key),"status":"\#(shop.orders.value[$0.key] ?? "")","updated":\#($0.value)}"#
            }
            return .json(#"{"orders":[\#(list.joined(separator: ","))]}"#)
        }
    }

    @Test(arguments: HarnessStore.available)
    func linesOfTheOrdersOfTheSamePassCarryTheirOrderKey(_ store: HarnessStore) async throws {
        let shop = StampedShop()
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let harness = try Self.sameFeed(server, store: store)
        let first = try await harness.run()
        #expect(first.feeds.first?.status == .ok, "\(first.feeds.first?.error ?? "")")
        #expect(Self.linePaths(server) == ["/orders/1/lines", "/orders/2/lines", "/orders/3/lines"])
        await #expect(
            try Self.lines(harness) == [
                "1/1: SKU-1-1", "2/1: SKU-2-1", "2/2: SKU-2-2", "3/1: SKU-3-1", "3/2: SKU-3-2", "3/3: SKU-3-3",
            ])

        // The next pass sends since=3 and gets order 2 (changed) only: only its lines are asked for.
        shop.updated.set([1: 1, 2: 5, 3: 3])
        let before = server.requestCount
        let second = try await harness.run()
        #expect(second.feeds.first?.status == .ok, "\(second.feeds.first?.error ?? "")")
        #expect(server.requests.dropFirst(before).map(\.target) == ["/orders?since=3", "/orders/2/lines"])
    }

    @Test func aChildEndpointAnswering404IsAReject() async throws {
        let shop = StampedShop()
        shop.shop.missing.set([1])
        let server = try LoopbackServer(handler: shop.reply)
        defer { server.stop() }
        let harness = try Self.sameFeed(server, store: .sqlite)
        let report = try await harness.run()
        #expect(report.feeds.first?.status != .failed, "\(report.feeds.first?.error ?? "")")
        #expect(try await harness.count("order_line") == 5)
        let rejects = try await JSONFeedTest.rejects(harness)
        #expect(rejects.count == 1 && rejects.first?.contains("order 1") == true, "\(rejects)")
    }

    @Test func aChildURLNamesFieldsOfTheFeedsEntity() throws {
        let server = try LoopbackServer { _ in .status(404) }
        defer { server.stop() }
        let harness = try Self.sameFeed(server, store: .sqlite, lines: "/orders/{{parent.number}}/lines")
        do {
            _ = try harness.config()
            Issue.record("a child url naming no field of the entity was accepted")
        } catch {
            #expect("\(error)".contains("{{parent.number}} is not a value here"), "\(error)")
        }
    }
}
