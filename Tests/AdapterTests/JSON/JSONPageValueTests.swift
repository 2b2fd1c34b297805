import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Page values anywhere (`{{page}}`, `{{offset}}`, `{{limit}}`, `{{cursor}}` in the url, params,
/// headers and body), `has_more_path`, and walks that end early failing the pass.
@Suite("json adapter: page values and incomplete walks")
struct JSONPageValueTests {
    static let fields = """
            entity: item
            key: id
            fields: { id: int, name: string }
        """

    /// A POST search API: `{"query":"w","cursor":null,"size":25}` answers 25 hits and a
    /// `next_cursor`; every fifth request is refused with a 429.
    static func searchServer(count: Int) throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.number % 5 == 0 { return .json(#"{"error":"slow down"}"#, status: 429) }
            guard case .object(let body)? = try? JSONParser.parse(request.body), body["query"] == .string("w"),
                case .number(let sizeText)? = body["size"], let size = Int(sizeText)
            else { return .json(#"{"error":"bad body: \#(request.bodyText)"}"#, status: 400) }
            let start: Int
            switch body["cursor"] {
            case .null?: start = 0
            case .string(let cursor)?: start = Int(cursor.dropFirst(2)) ?? -1
            default: return .json(#"{"error":"bad cursor"}"#, status: 400)
            }
            guard start >= 0 else { return .json(#"{"error":"bad cursor"}"#, status: 400) }
            let end = min(start + size, count)
            let next = end < count ? #""c-\#(end)""# : "null"
            return .json(#"{"hits":{"items":\#(JSONFeedTest.items(start..<end))},"next_cursor":\#(next)}"#)
        }
    }

    @Test(arguments: HarnessStore.available)
    func aPOSTSearchWithTheCursorInTheBodyLoadsEveryRowThrough429s(driver: HarnessStore) async throws {
        let server = try Self.searchServer(count: 120)
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: """
                feeds:
                  - name: items
                    adapter: json
                    url: \(server.url("/search"))
                    retries: 3
                    backoff: 10ms
                    method: POST
                    body: { query: w, cursor: "{{cursor}}", size: "{{limit}}" }
                    pagination: { type: cursor, cursor_path: $.next_cursor, limit: 25 }
                    records: $.hits.items
                \(Self.fields)
                """, store: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.inserted == 120)
        #expect(try await harness.count("item") == 120)
        let bodies = server.requests.filter { $0.number % 5 != 0 }.map(\.bodyText)
        #expect(bodies.first == #"{"query":"w","cursor":null,"size":25}"#)
        #expect(bodies.last == #"{"query":"w","cursor":"c-100","size":25}"#)
        #expect(server.requests.allSatisfy { $0.query("cursor") == nil && $0.query("limit") == nil })
    }

    /// Pages of ten records by `?page=N`; past page 4 it serves page 4 again.
    static func repeatingServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            let page = min(Int(request.query("page") ?? "1") ?? 1, 4)
            return .json(#"{"items":\#(JSONFeedTest.items((page - 1) * 10..<page * 10))}"#)
        }
    }

    @Test(arguments: HarnessStore.available)
    func aPageNumberAPIThatRepeatsItsLastPageFailsThePassAndSaysWhy(driver: HarnessStore) async throws {
        let server = try Self.repeatingServer()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: page }\n    records: $.items\n" + Self.fields,
            driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(
            report.error?.contains(
                "page 5 repeats page 4 (the same 10 record(s)): the API ignores the page's parameters or repeats its last page; the pass would be incomplete, so nothing was changed"
            ) == true, "\(report.error ?? "")")
        #expect(server.requestCount == 5)
        #expect(try await harness.tableNames(like: "item%") == [], "the failed first pass left no table")
    }

    @Test func allowIncompleteTurnsTheFailureIntoANote() async throws {
        let server = try Self.repeatingServer()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: page, allow_incomplete: true }\n    records: $.items\n" + Self.fields)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok)
        #expect(report.hasNote("page 5 repeats page 4"))
        #expect(try await harness.count("item") == 40)
    }

    @Test(arguments: HarnessStore.available)
    func aRepeatedNextLinkFailsThePass(driver: HarnessStore) async throws {
        let server = try LoopbackServer { request in
            let page = request.query("page") ?? "1"
            return .json(#"{"items":\#(JSONFeedTest.items(page == "1" ? 0..<2 : 2..<4)),"next":"/items?page=2"}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: next_url, next_path: next }\n    records: $.items\n" + Self.fields, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("page 3 would repeat an earlier page (the same link or cursor)") == true)
        #expect(try await harness.tableNames(like: "item%") == [], "the failed first pass left no table")
    }

    @Test(arguments: HarnessStore.available)
    func fewerRecordsThanTheTotalFailThePass(driver: HarnessStore) async throws {
        // The API says 50 but ends after 30.
        let server = try LoopbackServer { request in
            let offset = Int(request.query("offset") ?? "") ?? 0
            return .json(#"{"items":\#(JSONFeedTest.items(min(offset, 30)..<min(offset + 10, 30))),"total":50}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: offset, limit: 10, total_path: $.total }\n    records: $.items\n" + Self.fields,
            driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("the pages held 30 of the 50 records that total_path gives") == true)
    }

    @Test func hasMorePathStopsTheWalk() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            return .json(#"{"items":\#(JSONFeedTest.items((page - 1) * 2..<page * 2)),"more":\#(page < 3)}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: page, has_more_path: $.more }\n    records: $.items\n" + Self.fields)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok)
        #expect(server.requestCount == 3)
        #expect(try await harness.count("item") == 6)
    }

    @Test func pageValuesGoInThePathAHeaderAndAFormBody() async throws {
        let server = try LoopbackServer { request in
            let offset = Int(request.path.split(separator: "/").last ?? "") ?? -1
            guard request.header("X-Limit") == "3", request.bodyText == "page=\(offset / 3 + 1)&kind=fruit"
            else { return .json(#"{"error":"bad request"}"#, status: 400) }
            return .json(#"{"items":\#(JSONFeedTest.items(max(offset, 0)..<min(offset + 3, 7))),"total":7}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items/{{offset}}"),
            """
                method: POST
                headers: { X-Limit: "{{limit}}" }
                body_format: form
                body: { page: "{{page}}", kind: fruit }
                pagination: { type: offset, limit: 3, total_path: $.total }
                records: $.items
            \(Self.fields)
            """)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(server.requests.map(\.path) == ["/items/0", "/items/3", "/items/6"])
        #expect(server.requests.allSatisfy { $0.query("offset") == nil })
        #expect(try await harness.count("item") == 7)
    }

    @Test func withAnIncrementalBlockThePageCursorIsPageCursor() async throws {
        let server = try LoopbackServer { request in
            guard request.query("since") == "2025-12-11T00:00:00Z" else { return .status(400) }
            let after = request.header("X-After")
            let items = after == nil ? JSONFeedTest.items(0..<2) : JSONFeedTest.items(2..<3)
            return .json(#"{"items":\#(items),"next":\#(after == nil ? #""p2""# : "null")}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                params: { since: "{{cursor}}" }
                headers: { X-After: "{{page_cursor}}" }
                pagination: { type: cursor, cursor_path: $.next }
                incremental: { cursor_path: id, start: "{{today-30d|iso}}" }
                records: $.items
            \(Self.fields)
            """)
        let report = try #require(try await harness.run(startDate: FeedHarness.fixedStart).feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(server.requests.map { $0.header("X-After") } == [nil, "p2"])
        #expect(try await harness.count("item") == 3)
    }

    @Test func aPageValueThePaginationDoesNotGiveIsReported() throws {
        let feed = """
              - name: items
                adapter: json
                url: https://api.example.com/items
                entity: item
                key: id
                fields: { id: int }
            """
        let problems = try JSONValidationTests.problems(
            feed + "\n    params: { from: \"{{offset}}\" }\n    pagination: { type: cursor, cursor_path: next }")
        #expect(problems == ["8:21: feed 'items': {{offset}} has no value with cursor pagination"])
        let noSize = try JSONValidationTests.problems(
            feed + "\n    params: { size: \"{{limit}}\" }\n    pagination: { type: page }")
        #expect(noSize == ["8:21: feed 'items': page pagination gives {{limit}} only with limit (the page size)"])
        let noCursor = try JSONValidationTests.problems(feed + "\n    params: { after: \"{{cursor}}\" }")
        #expect(noCursor.first?.contains("{{cursor}} needs an incremental: block or cursor pagination") == true)
    }
}
