import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Synchronization
import Testing

@Suite("json adapter: pagination")
struct JSONPaginationTests {
    static let fields = """
            records: $.items
            entity: item
            key: id
            fields: { id: int, name: string }
        """

    /// A server of `count` items paged by `offset`/`limit`, with the total in the body when `withTotal`.
    static func offsetServer(count: Int, withTotal: Bool) throws -> LoopbackServer {
        try LoopbackServer { request in
            let offset = Int(request.query("offset") ?? "") ?? -1
            let limit = Int(request.query("limit") ?? "") ?? -1
            guard offset >= 0, limit > 0 else { return .status(400) }
            let page = JSONFeedTest.items(min(offset, count)..<min(offset + limit, count))
            return .json(withTotal ? #"{"items":\#(page),"total":\#(count)}"# : #"{"items":\#(page)}"#)
        }
    }

    @Test func noPaginationMakesOneRequest() async throws {
        let server = try LoopbackServer { _ in .json(#"{"items":\#(JSONFeedTest.items(0..<3)),"next":"x"}"#) }
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok)
        #expect(server.requestCount == 1)
        #expect(try await harness.count("item") == 3)
    }

    @Test func offsetStopsWhenTheTotalIsReached() async throws {
        let server = try Self.offsetServer(count: 5, withTotal: true)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: offset, limit: 2, total_path: $.total }\n" + Self.fields
        )
        _ = try await harness.run()
        #expect(server.requests.map { $0.query("offset") } == ["0", "2", "4"])
        #expect(try await harness.count("item") == 5)
    }

    @Test func offsetStopsOnAnEmptyPage() async throws {
        let server = try Self.offsetServer(count: 5, withTotal: false)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: offset, limit: 2 }\n" + Self.fields)
        _ = try await harness.run()
        // The offset steps by the records each page held: the last one held 1.
        #expect(server.requests.map { $0.query("offset") } == ["0", "2", "4", "5"])
        #expect(try await harness.count("item") == 5)
    }

    @Test func offsetStopsOnAShortPageWhenAsked() async throws {
        let server = try Self.offsetServer(count: 5, withTotal: false)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: offset, limit: 2, stop_on_short_page: true, limit_param: limit }\n" + Self.fields)
        _ = try await harness.run()
        #expect(server.requests.map { $0.query("offset") } == ["0", "2", "4"])
        #expect(try await harness.count("item") == 5)
    }

    @Test func pageNumbersStopAtTotalPages() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("p") ?? "") ?? 0
            return .json(#"{"data":{"rows":\#(JSONFeedTest.items((page * 10)..<(page * 10 + 2)))},"pages":3}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                pagination: { type: page, page_param: p, total_pages_path: $.pages }
                records: $.data.rows
                entity: item
                key: id
                fields: { id: int }
            """)
        _ = try await harness.run()
        #expect(server.requests.map { $0.query("p") } == ["1", "2", "3"])
        #expect(try await harness.count("item") == 6)
    }

    @Test func pageNumbersStopOnAnEmptyPageAndSendThePageSize() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            return .json(#"{"items":\#(page <= 2 ? JSONFeedTest.items((page * 10)..<(page * 10 + 3)) : "[]")}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: page, limit: 3, limit_param: per_page }\n" + Self.fields
        )
        _ = try await harness.run()
        #expect(server.requests.map { $0.query("page") } == ["1", "2", "3"])
        #expect(server.requests.allSatisfy { $0.query("per_page") == "3" })
        #expect(try await harness.count("item") == 6)
    }

    @Test func cursorIsPassedBackUntilItIsNull() async throws {
        let server = try LoopbackServer { request in
            switch request.query("after") {
            case nil: .json(#"{"items":\#(JSONFeedTest.items(0..<2)),"meta":{"next":"c2"}}"#)
            case "c2": .json(#"{"items":\#(JSONFeedTest.items(2..<4)),"meta":{"next":"c3"}}"#)
            case "c3": .json(#"{"items":\#(JSONFeedTest.items(4..<5)),"meta":{"next":null}}"#)
            default: .status(400)
            }
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: cursor, cursor_path: $.meta.next, cursor_param: after }\n" + Self.fields)
        _ = try await harness.run()
        #expect(server.requests.map { $0.query("after") } == [nil, "c2", "c3"])
        #expect(try await harness.count("item") == 5)
    }

    @Test func nextURLFollowsRelativeAndAbsoluteLinksKeepingTheirQuery() async throws {
        let server = try LoopbackServer { request in
            switch request.target {
            case "/v1/items?q=x": .json(#"{"items":\#(JSONFeedTest.items(0..<2)),"links":{"next":"items?page=2&q=x"}}"#)
            case "/v1/items?page=2&q=x":
                .json(#"{"items":\#(JSONFeedTest.items(2..<4)),"links":{"next":"/v1/items?page=3&q=x"}}"#)
            case "/v1/items?page=3&q=x": .json(#"{"items":\#(JSONFeedTest.items(4..<5)),"links":{}}"#)
            default: .status(404)
            }
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/v1/items"),
            "    params: { q: x }\n    pagination: { type: next_url, next_path: $.links.next }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(server.requestCount == 3)
        #expect(try await harness.count("item") == 5)
    }

    @Test func linkHeaderFollowsRelNext() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let body = #"{"items":\#(JSONFeedTest.items((page * 10)..<(page * 10 + 2)))}"#
            guard page < 3 else { return .json(body).header("Link", #"</items?page=1>; rel="first""#) }
            return .json(body).header(
                "Link",
                #"</items?page=1>; rel="first", <http://127.0.0.1:\#(request.header("host")?.split(separator: ":").last ?? "")/items?page=\#(page + 1)>; rel="next""#
            )
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: link_header }\n" + Self.fields)
        _ = try await harness.run()
        #expect(server.requests.map { $0.query("page") } == [nil, "2", "3"])
        #expect(try await harness.count("item") == 6)
    }

    @Test func maxPagesStopsAMergeFeedWithANote() async throws {
        let server = try Self.offsetServer(count: 10, withTotal: false)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: offset, limit: 2, max_pages: 2 }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok)
        #expect(server.requestCount == 2)
        #expect(try await harness.count("item") == 4)
        #expect(report.feeds.first?.hasNote("max_pages (2)") == true)
    }

    @Test func maxPagesFailsAReplaceFeedAndKeepsItsRows() async throws {
        let server = try Self.offsetServer(count: 10, withTotal: true)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: offset, limit: 5, total_path: total }\n    write: replace\n" + Self.fields)
        _ = try await harness.run()
        #expect(try await harness.count("item") == 10)
        try harness.setConfig(
            try String(contentsOf: URL(fileURLWithPath: harness.configPath), encoding: .utf8)
                .replacingOccurrences(of: "total_path: total", with: "total_path: total, max_pages: 1"))
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .failed)
        #expect(report.feeds.first?.error?.contains("max_pages") == true)
        #expect(try await harness.count("item") == 10)
    }

    @Test func aRepeatedPageStopsTheWalkWithANoteWhenIncompleteIsAllowed() async throws {
        let server = try LoopbackServer { _ in .json(#"{"items":\#(JSONFeedTest.items(0..<2)),"next":"/items?page=2"}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: next_url, next_path: next, allow_incomplete: true }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok)
        #expect(server.requestCount == 2)
        #expect(report.feeds.first?.hasNote("page 2 repeats page 1") == true)
        #expect(try await harness.count("item") == 2)
    }

    @Test func parallelPagesAreFetchedAtOnceAndCommittedInPageOrder() async throws {
        let inFlight = Mutex((now: 0, most: 0))
        let lastAnswered = Mutex(false)
        let server = try LoopbackServer { request in
            inFlight.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            defer { inFlight.withLock { $0.now -= 1 } }
            let offset = Int(request.query("offset") ?? "") ?? 0
            // Item 1 comes again on the second page and on the last one; the second page answers
            // last, yet the last page's version must win because pages commit in page order.
            var items = (offset..<(offset + 2)).map { #"{"id":\#($0),"name":"item-\#($0)"}"# }
            if offset == 2 { items.append(#"{"id":1,"name":"early"}"#) }
            if offset == 8 { items.append(#"{"id":1,"name":"late"}"#) }
            // Every page after the first answers only once another is asked for beside it, and the
            // second only after the last one was answered: fetched one at a time, each waits out
            // its 60 s and the checks below fail.
            let deadline = Date(timeIntervalSinceNow: 60)
            while offset > 0, inFlight.withLock({ $0.most }) < 2, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            while offset == 2, !lastAnswered.withLock({ $0 }), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            let page = LoopbackReply.json(#"{"items":[\#(items.joined(separator: ","))],"total":10}"#)
            if offset == 8 { lastAnswered.withLock { $0 = true } }
            return page
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: offset, limit: 2, total_path: $.total, parallel: 4 }\n" + Self.fields)
        // A client of its own: the process's shared one serves every test running at once, and
        // its workers, busy with theirs, would send these pages one at a time.
        let report = try await harness.run(fetcher: StandardFetcher(client: CurlHTTPClient(workers: 4)))
        #expect(report.feeds.first?.status == .ok)
        #expect(server.requestCount == 5)
        #expect(inFlight.withLock { $0.most } > 1)
        #expect(try await harness.count("item") == 10)
        #expect(JSONFeedTest.texts(try await harness.rows("SELECT name FROM item WHERE id = 1"), "name") == ["late"])
    }

    @Test func parallelPageNumbersUseTheTotalAndPageSize() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let start = (page - 1) * 3
            return .json(#"{"items":\#(JSONFeedTest.items(start..<min(start + 3, 8))),"count":8}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: page, limit: 3, total_path: count, parallel: 2 }\n" + Self.fields)
        _ = try await harness.run()
        #expect(Set(server.requests.compactMap { $0.query("page") }) == ["1", "2", "3"])
        #expect(try await harness.count("item") == 8)
    }
}
