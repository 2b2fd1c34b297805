import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// The API shapes the json adapter reads besides the common ones: a cursor or next link in a
/// response header, a status that means "no records", a 200 whose body says it failed, date
/// windows whose end the API reads inclusively, values the API does not send (`const`,
/// `concat`) and members never kept in `_extra`.
@Suite("json adapter: API shapes")
struct JSONAPIShapeTests {
    static let fields = """
            records: $.items
            entity: item
            key: id
            fields: { id: int, name: string }
        """

    @Test func aCursorInAResponseHeaderPagesTheWalk() async throws {
        let server = try LoopbackServer { request in
            switch request.query("cursor") {
            case nil: .json(#"{"items":\#(JSONFeedTest.items(0..<2))}"#).header("X-Next-Cursor", "c2")
            case "c2"?: .json(#"{"items":\#(JSONFeedTest.items(2..<4))}"#).header("X-Next-Cursor", "c3")
            case "c3"?: .json(#"{"items":\#(JSONFeedTest.items(4..<5))}"#)
            default: .status(400)
            }
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: cursor, cursor_header: X-Next-Cursor }\n" + Self.fields)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(server.requests.map { $0.query("cursor") } == [nil, "c2", "c3"])
        #expect(try await harness.count("item") == 5)
    }

    @Test func aNextURLInAPlainResponseHeaderPagesTheWalk() async throws {
        let server = try LoopbackServer { request in
            switch request.query("page") {
            case nil: .json(#"{"items":\#(JSONFeedTest.items(0..<2))}"#).header("X-Next-Page", "/items?page=2")
            case "2"?: .json(#"{"items":\#(JSONFeedTest.items(2..<4))}"#).header("X-Next-Page", "items?page=3")
            case "3"?: .json(#"{"items":\#(JSONFeedTest.items(4..<5))}"#).header("X-Next-Page", "")
            default: .status(400)
            }
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: next_url, next_header: X-Next-Page }\n" + Self.fields)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(server.requests.map { $0.query("page") } == [nil, "2", "3"])
        #expect(try await harness.count("item") == 5)
    }

    @Test func aCursorPaginationNeedsOneOfCursorPathAndCursorHeader() throws {
        for pagination in [
            "{ type: cursor }", "{ type: cursor, cursor_path: $.next, cursor_header: X-Next }",
            "{ type: next_url, next_path: $.next, next_header: X-Next }",
        ] {
            #expect(throws: (any Error).self, "\(pagination)") {
                try JSONFeedTest.harness(
                    url: "http://127.0.0.1:9/items", "    pagination: \(pagination)\n" + Self.fields
                )
                .config()
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aListedStatusOfTheFeedsOwnEndpointIsAPassWithNoRecords(driver: HarnessStore) async throws {
        let missing = Shared(false)
        let server = try LoopbackServer { _ in
            missing.value
                ? .json(#"{"message":"no such list"}"#, status: 404)
                : .json(#"{"items":\#(JSONFeedTest.items(0..<3))}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    empty_statuses: [404]\n" + Self.fields, driver: driver)
        _ = try await harness.run()
        missing.set(true)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.hasNote("page 1 answered 404, which empty_statuses reads as no records"))
        #expect(report.counts.inserted == 0 && report.counts.deleted == 0)
        #expect(try await harness.count("item") == 3, "merge keeps the rows it was not given")
        #expect(server.requestCount == 2, "a listed status is not retried")
    }

    @Test func anUnlistedStatusStillFailsThePass() async throws {
        let server = try LoopbackServer { _ in .json(#"{"message":"gone"}"#, status: 410) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    empty_statuses: [404]\n" + Self.fields)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
    }

    @Test(arguments: HarnessStore.available)
    func aBodySayingItFailedFailsThePassUnderA200(driver: HarnessStore) async throws {
        let failing = Shared(false)
        let server = try LoopbackServer { _ in
            failing.value
                ? .json(#"{"items":[{"id":9,"name":"half"}],"error":{"message":"quota exceeded"}}"#)
                : .json(#"{"items":\#(JSONFeedTest.items(0..<3)),"error":null}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    write: replace\n    error_path: $.error.message\n" + Self.fields,
            driver: driver)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok, "a null error is no error: \(first.error ?? "")")
        failing.set(true)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = report.error ?? ""
        #expect(error.contains("feed 'items'") && error.contains(server.url("/items")))
        #expect(error.contains("at $.error.message") && error.contains("quota exceeded"), "\(error)")
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == [0, 1, 2])
    }

    @Test(arguments: HarnessStore.available)
    func aMemberEqualToTheErrorValueFailsThePass(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in
            .json(#"{"status":"error","message":"try later"}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    error_when: { path: status, equals: error }\n    error_path: message\n" + Self.fields,
            driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("at $.message: the response says the request failed: try later") == true)
    }

    @Test func aMemberOtherThanTheErrorValueIsNoFailure() async throws {
        let server = try LoopbackServer { _ in
            .json(#"{"status":"ok","items":\#(JSONFeedTest.items(0..<2))}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    error_when: { path: status, equals: error }\n" + Self.fields)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("item") == 2)
    }

    /// One event at midnight each day of the 28 days before the harness's start, served for
    /// `from <= at <= to` (both ends inclusive); counts how often each event is served.
    final class InclusiveEventsAPI: Sendable {
        static let end: Int64 = 1_768_003_200  // 2026-01-10T00:00:00Z, FeedHarness.fixedStart
        static let day: Int64 = 86_400
        let served = Shared<[Int64: Int]>([:])
        let asked = Shared<[String]>([])

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            let from = request.query("from") ?? ""
            let to = request.query("to") ?? ""
            asked.set(asked.value + ["\(from) \(to)"])
            guard let start = ISO8601.parse(from).map(Int64.init), let end = ISO8601.parse(to).map(Int64.init)
            else { return .status(400) }
            let events = (0...28).map { Self.end - Int64($0) * Self.day }.sorted().filter { $0 >= start && $0 <= end }
            var counts = served.value
            for event in events { counts[event / Self.day, default: 0] += 1 }
            served.set(counts)
            let items = events.map { #"{"id":\#($0 / Self.day),"at":"\#(CivilTime(unixSeconds: $0).iso8601)"}"# }
            return .json("[" + items.joined(separator: ",") + "]")
        }
    }

    @Test(arguments: HarnessStore.available)
    func inclusiveWindowEndsReadNoBoundaryRecordTwice(driver: HarnessStore) async throws {
        let api = InclusiveEventsAPI()
        let server = try LoopbackServer { api.reply($0) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/events"),
            """
                entity: event
                key: id
                fields: { id: int, at: timestamp }
                incremental:
                  cursor_path: at
                  param: from
                  end_param: to
                  start: "{{today-28d|iso}}"
                  window: 7d
                  windows_per_pass: 10
                  window_end: inclusive
            """, driver: driver)
        let report = try #require(try await harness.run(startDate: FeedHarness.fixedStart).feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(api.asked.value.first == "2025-12-13T00:00:00Z 2025-12-19T23:59:59Z")
        #expect(api.asked.value.count == 4)
        #expect(api.served.value.values.allSatisfy { $0 == 1 }, "\(api.served.value)")
        #expect(api.served.value.count == 28, "28 midnights before the end; the end's own is the next pass's")
        #expect(try await harness.count("event") == 28)
        withExtendedLifetime(server) {}
    }

    @Test func windowEndIsExclusiveOrInclusive() throws {
        #expect(throws: (any Error).self) {
            try JSONFeedTest.harness(
                url: "http://127.0.0.1:9/events",
                """
                    entity: event
                    key: id
                    fields: { id: int, at: timestamp }
                    incremental: { cursor_path: at, param: from, end_param: to, start: "2025-01-01T00:00:00Z", window: 7d, window_end: both }
                """
            ).config()
        }
    }

    @Test func constantsAndConcatenationsAreTypedLikeAnyField() async throws {
        let server = try LoopbackServer { _ in
            .json(
                #"{"items":[{"id":1,"first":"Ada","last":"Lovelace","y":"1815","m":"12","d":"10"},{"id":2,"first":"Plato"}]}"#
            )
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/people"),
            """
                records: $.items
                entity: person
                key: id
                fields:
                  id: int
                  region: { type: string, const: eu }
                  weight: { type: int, const: "7" }
                  full_name: { type: string, concat: [first, last], separator: " " }
                  born: { type: date, concat: [y, m, d], separator: "-" }
            """)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        let rows = try await harness.rows("SELECT region, weight, full_name, born FROM person ORDER BY id")
        #expect(JSONFeedTest.texts(rows, "region") == ["eu", "eu"])
        #expect(JSONFeedTest.integers(rows, "weight") == [7, 7])
        #expect(JSONFeedTest.texts(rows, "full_name") == ["Ada Lovelace", "Plato"])
        #expect(JSONFeedTest.texts(rows, "born") == ["1815-12-10"])
    }

    @Test func aConstantThatDoesNotFitItsTypeIsRefused() throws {
        #expect(throws: (any Error).self) {
            try JSONFeedTest.harness(
                url: "http://127.0.0.1:9/items",
                "    entity: item\n    key: id\n    fields: { id: int, weight: { type: int, const: heavy } }"
            ).config()
        }
    }

    @Test func extraKeepLeavesOutTheMembersOfExcept() async throws {
        let server = try LoopbackServer { _ in
            .json(
                #"{"items":[{"id":1,"name":"a","password":"hunter2","internal":{"notes":"secret","team":"x"},"size":3}]}"#
            )
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                records: $.items
                entity: item
                key: id
                extra: { keep: true, except: [password, internal.notes] }
                fields: { id: int, name: string }
            """)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        let rows = try await harness.rows("SELECT _extra FROM item")
        #expect(JSONFeedTest.texts(rows, "_extra") == [#"{"internal":{"team":"x"},"size":3}"#])
    }
}
