import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `incremental:` sends the greatest cursor value committed so far (less `lag`), so that an API
/// which honours `since` serves only new and changed records; the cursor moves only with a
/// committed pass.
@Suite("json adapter: incremental loading")
struct JSONIncrementalTests {
    /// An orders API that honours `since` (inclusive) and counts the records it served.
    final class OrdersAPI: Sendable {
        let orders = Shared<[(id: Int, updated: String, total: String)]>([
            (1, "2026-01-01T10:00:00Z", "10"), (2, "2026-01-02T10:00:00Z", "20"),
            (3, "2026-01-03T10:00:00Z", "30"),
        ])
        let served = Shared<[Int]>([])
        let sent = Shared<[String?]>([])
        let failing = Shared(false)

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            if failing.value { return .json(#"{"error": "down"}"#, status: 500) }
            let since = request.query("since")
            sent.set(sent.value + [since])
            let picked = orders.value.filter { since == nil || $0.updated >= since! }
            served.set(served.value + [picked.count])
            let items = picked.map { #"{"id":\#($0.id),"updated_at":"\#($0.updated)","total":"\#($0.total)"}"# }
            return .json(#"{"orders":[\#(items.joined(separator: ","))]}"#)
        }

        func change(_ id: Int, updated: String, total: String) {
            orders.set(orders.value.filter { $0.id != id } + [(id, updated, total)])
        }
    }

    static let fields = "fields: { id: int, updated_at: timestamp, total: decimal }"

    static func harness(
        _ api: OrdersAPI, incremental: String, url: String = "/orders", extra: String = "", driver: HarnessStore
    ) throws -> (FeedHarness, LoopbackServer) {
        let server = try LoopbackServer { api.reply($0) }
        let harness = try JSONFeedTest.harness(
            url: server.url(url),
            """
                records: $.orders
                entity: order
                key: id
                \(fields)
                incremental: \(incremental)
            \(extra)
            """, driver: driver)
        return (harness, server)
    }

    /// One pass, starting at 2026-01-10T00:00:00Z.
    static func pass(_ harness: FeedHarness, fullRefresh: Bool = false) async throws -> FeedReport {
        var engine = try await Engine.open(try harness.config(), startDate: FeedHarness.fixedStart)
        engine.fullRefresh = fullRefresh
        return try #require(await engine.run().feeds.first)
    }

    static func cursor(_ harness: FeedHarness) async throws -> String? {
        let rows = try await harness.rows("SELECT value FROM _state WHERE feed = 'items' AND key = 'cursor'")
        return JSONFeedTest.texts(rows, "value").first
    }

    static let basic = #"{ cursor_path: updated_at, param: since, start: "{{today-30d|iso}}" }"#

    @Test(arguments: HarnessStore.available)
    func laterPassesReadOnlyNewAndChangedRecords(driver: HarnessStore) async throws {
        let api = OrdersAPI()
        let (harness, server) = try Self.harness(api, incremental: Self.basic, driver: driver)
        let first = try await Self.pass(harness)
        #expect(first.counts.inserted == 3)
        await #expect(try Self.cursor(harness) == "2026-01-03T10:00:00Z")
        api.change(2, updated: "2026-01-04T09:00:00Z", total: "25")
        api.change(4, updated: "2026-01-05T09:00:00Z", total: "40")
        let second = try await Self.pass(harness)
        #expect((second.counts.inserted, second.counts.updated, second.counts.unchanged) == (1, 1, 1))
        let third = try await Self.pass(harness)
        #expect((third.counts.inserted, third.counts.updated, third.counts.unchanged) == (0, 0, 1))
        #expect(api.sent.value == ["2025-12-11T00:00:00Z", "2026-01-03T10:00:00Z", "2026-01-05T09:00:00Z"])
        #expect(api.served.value == [3, 3, 1])
        #expect(try await harness.count("order") == 4)
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func aFailedPassLeavesTheCursorWhereItWas(driver: HarnessStore) async throws {
        let api = OrdersAPI()
        let (harness, server) = try Self.harness(api, incremental: Self.basic, driver: driver)
        _ = try await Self.pass(harness)
        api.change(4, updated: "2026-01-06T00:00:00Z", total: "40")
        api.failing.set(true)
        #expect(try await Self.pass(harness).status == .failed)
        await #expect(try Self.cursor(harness) == "2026-01-03T10:00:00Z")
        api.failing.set(false)
        let retried = try await Self.pass(harness)
        #expect(api.sent.value.last == "2026-01-03T10:00:00Z")
        #expect(retried.counts.inserted == 1)
        await #expect(try Self.cursor(harness) == "2026-01-06T00:00:00Z")
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func aFullRefreshSendsTheStartAgainAndReadsEverything(driver: HarnessStore) async throws {
        let api = OrdersAPI()
        let (harness, server) = try Self.harness(api, incremental: Self.basic, driver: driver)
        _ = try await Self.pass(harness)
        _ = try await Self.pass(harness)
        let full = try await Self.pass(harness, fullRefresh: true)
        #expect(api.sent.value.last == "2025-12-11T00:00:00Z")
        #expect(api.served.value == [3, 1, 3])
        #expect(full.counts.unchanged == 3)
        await #expect(try Self.cursor(harness) == "2026-01-03T10:00:00Z")
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func lagReReadsTheOverlapAndCountsItUnchanged(driver: HarnessStore) async throws {
        let api = OrdersAPI()
        let (harness, server) = try Self.harness(
            api, incremental: #"{ cursor_path: updated_at, param: since, lag: 25h }"#, driver: driver)
        let first = try await Self.pass(harness)
        #expect(first.counts.inserted == 3)
        #expect(api.sent.value.first == .some(nil))
        let second = try await Self.pass(harness)
        #expect(api.sent.value.last == "2026-01-02T09:00:00Z")
        #expect((second.counts.unchanged, second.counts.inserted, second.counts.updated) == (2, 0, 0))
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func olderRecordsTheAPIReturnsAnywayAreMergedAndTheCursorNeverMovesBack(driver: HarnessStore) async throws {
        let api = OrdersAPI()
        let (harness, server) = try Self.harness(api, incremental: Self.basic, driver: driver)
        _ = try await Self.pass(harness)
        // An API that ignores `since` on this pass: every record comes back, one of them changed.
        let ignoring = try LoopbackServer { _ in
            .json(#"{"orders":[{"id":1,"updated_at":"2026-01-01T10:00:00Z","total":"11"}]}"#)
        }
        try harness.setConfig(
            try String(contentsOf: harness.directory.appendingPathComponent("feeds.yaml"), encoding: .utf8)
                .replacingOccurrences(of: server.url("/orders"), with: ignoring.url("/orders")))
        let second = try await Self.pass(harness)
        #expect(second.counts.updated == 1)
        await #expect(try Self.cursor(harness) == "2026-01-03T10:00:00Z")
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func anIntegerCursorIsSentAsStoredInThePath(driver: HarnessStore) async throws {
        let api = OrdersAPI()
        let server = try LoopbackServer { request in
            let after = Int(request.path.split(separator: "/").last ?? "") ?? 0
            api.sent.set(api.sent.value + [String(after)])
            let items = (1...5).filter { $0 > after }.map { #"{"id":\#($0)}"# }
            return .json("[" + items.joined(separator: ",") + "]")
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/orders/after/{{cursor}}"),
            """
                entity: order
                key: id
                fields: { id: int }
                incremental: { cursor_path: id, start: "0" }
            """, driver: driver)
        _ = try await Self.pass(harness)
        let second = try await Self.pass(harness)
        #expect(api.sent.value == ["0", "5"])
        #expect(second.counts.inserted == 0)
        await #expect(try Self.cursor(harness) == "5")
    }

    @Test(arguments: HarnessStore.available)
    func theCursorCanGoInThePOSTBody(driver: HarnessStore) async throws {
        let bodies = Shared<[String]>([])
        let server = try LoopbackServer { request in
            bodies.set(bodies.value + [request.bodyText])
            return .json(#"[{"id":1,"name":"b"}]"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/search"),
            """
                method: POST
                body: { filter: { updated_after: "{{cursor}}" }, size: 50 }
                entity: item
                key: id
                fields: { id: int, name: string }
                incremental: { cursor_path: name, start: a }
            """, driver: driver)
        _ = try await Self.pass(harness)
        _ = try await Self.pass(harness)
        #expect(
            bodies.value == [
                #"{"filter":{"updated_after":"a"},"size":50}"#, #"{"filter":{"updated_after":"b"},"size":50}"#,
            ])
    }

    @Test(arguments: HarnessStore.available)
    func aDescendingAPIStopsPagingPastTheCursor(driver: HarnessStore) async throws {
        // Ten records, newest first, three a page; `since` is not understood by this API.
        let requested = Shared<[Int]>([])
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            requested.set(requested.value + [page])
            let ids = Array((1...10).reversed()).dropFirst((page - 1) * 3).prefix(3)
            let items = ids.map { #"{"id":\#($0),"updated_at":"2026-01-\#(String(format: "%02d", $0))T00:00:00Z"}"# }
            return .json("[" + items.joined(separator: ",") + "]")
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/events"),
            """
                entity: event
                key: id
                fields: { id: int, updated_at: timestamp }
                pagination: { type: page, limit: 3, stop_on_short_page: true }
                incremental: { cursor_path: updated_at, param: since, order: desc }
            """, driver: driver)
        _ = try await Self.pass(harness)
        #expect(requested.value == [1, 2, 3, 4])
        requested.set([])
        let second = try await Self.pass(harness)
        #expect(requested.value == [1])
        #expect(second.hasNote("reached records older than the cursor"), "\(second.notes)")
    }

    @Test(arguments: HarnessStore.available)
    func anEndWindowIsSentWithEveryPass(driver: HarnessStore) async throws {
        let api = OrdersAPI()
        let until = Shared<[String]>([])
        let server = try LoopbackServer { request in
            until.set(until.value + [request.query("until") ?? "-"])
            return api.reply(request)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/orders"),
            """
                records: $.orders
                entity: order
                key: id
                \(Self.fields)
                incremental: { cursor_path: updated_at, param: since, end: "{{today|iso}}", end_param: until }
            """, driver: driver)
        _ = try await Self.pass(harness)
        #expect(until.value == ["2026-01-10T00:00:00Z"])
    }

    @Test func replaceModeCannotBeIncremental() throws {
        let problems = try JSONValidationTests.problems(
            JSONValidationTests.valid + "\n    write: replace\n    incremental: { cursor_path: id, param: after }")
        #expect(problems.count == 1)
        #expect(problems.first?.contains("write: replace cannot be incremental") == true, "\(problems)")
        #expect(problems.first?.hasPrefix("12:18:") == true, "\(problems.first ?? "")")
    }

    @Test func everyProblemOfTheBlockIsReportedAtItsKey() throws {
        let problems = try JSONValidationTests.problems(
            JSONValidationTests.valid + "\n    incremental: { cursor_path: updated, lag: 1h, order: newest }")
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("cursor_path 'updated' is not a declared field") }, "\(problems)")
        #expect(problems.contains { $0.contains("incremental needs param") }, "\(problems)")
        #expect(problems.contains { $0.contains("order must be asc or desc") }, "\(problems)")
    }

    @Test func aCursorMustBeATimestampIntegerOrString() throws {
        let problems = try JSONValidationTests.problems(
            JSONValidationTests.valid + "\n    incremental: { cursor_path: cost.amount, param: since, lag: 1h }")
        #expect(
            problems == [
                "11:33: feed 'items': cursor_path 'cost.amount' is the decimal field 'price'; a cursor is a timestamp, int or string field"
            ])
    }

    @Test func aCursorPlaceholderWithoutTheBlockIsReported() throws {
        let problems = try JSONValidationTests.problems(
            JSONValidationTests.valid + "\n    params: { since: \"{{cursor}}\" }")
        #expect(problems.count == 1)
        #expect(problems.first?.contains("{{cursor}} needs an incremental: block") == true, "\(problems)")
    }
}
