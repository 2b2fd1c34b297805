import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// A walk over pages ends for a reason its pages or its config vouch for, and the report says
/// which; one that stops where more may follow fails, or is a note with `allow_incomplete`.
@Suite("json adapter: pagination: why a walk ends")
struct JSONWalkEndTests {
    static let fields = JSONPaginationTests.fields

    /// Cursor pages of 23 items whose second page is empty yet gives the next cursor, and
    /// `has_more` true on every page but the last.
    static func cursorServerWithAnEmptyMiddlePage() throws -> LoopbackServer {
        try LoopbackServer { request in
            let (range, next): (Range<Int>, String?) =
                switch request.query("cursor") {
                case nil: (0..<5, "c2")
                case "c2": (5..<5, "c3")
                case "c3": (5..<15, "c4")
                case "c4": (15..<23, nil)
                default: (0..<0, nil)
                }
            let nextText = next.map { #""\#($0)""# } ?? "null"
            return .json(
                #"{"items":\#(JSONFeedTest.items(range)),"next":\#(nextText),"has_more":\#(next != nil)}"#)
        }
    }

    /// 23 items paged by `offset`/`limit`, at most 5 a page whatever `limit` asks for; the total
    /// in the body when `withTotal`.
    static func cappedOffsetServer(withTotal: Bool = false) throws -> LoopbackServer {
        try LoopbackServer { request in
            let offset = Int(request.query("offset") ?? "") ?? -1
            let limit = Int(request.query("limit") ?? "") ?? -1
            guard offset >= 0, limit > 0 else { return .status(400) }
            let page = JSONFeedTest.items(min(offset, 23)..<min(offset + min(limit, 5), 23))
            return .json(withTotal ? #"{"items":\#(page),"total":23}"# : #"{"items":\#(page)}"#)
        }
    }

    @Test func anEmptyMiddleCursorPageWithHasMoreGoesOnToEveryRecord() async throws {
        let server = try Self.cursorServerWithAnEmptyMiddlePage()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: cursor, cursor_path: next, has_more_path: has_more }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(try await harness.count("item") == 23)
        #expect(report.feeds.first?.hasNote("pagination: 4 page(s); ended: has_more false (has_more_false)") == true)
    }

    @Test func anEmptyMiddleCursorPageWithANextCursorButNoHasMoreFailsThePass() async throws {
        let server = try Self.cursorServerWithAnEmptyMiddlePage()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: cursor, cursor_path: next }\n" + Self.fields)
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("page 2 does not say it is the last: it is empty but gives a next cursor") == true)
        #expect(feed.error?.contains("nothing was changed") == true)
        #expect(try await harness.tableNames(like: "item").isEmpty)
    }

    @Test func anEmptyLastCursorPageEndsTheWalk() async throws {
        let server = try LoopbackServer { request in
            switch request.query("cursor") {
            case nil: .json(#"{"items":\#(JSONFeedTest.items(0..<3)),"next":"c2"}"#)
            default: .json(#"{"items":[],"next":null}"#)
            }
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: cursor, cursor_path: next }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(try await harness.count("item") == 3)
        #expect(report.feeds.first?.hasNote("pagination: 2 page(s); ended: no next page (no_next_page)") == true)
    }

    @Test func anOffsetTheAPICapsAdvancesByTheRecordsReceived() async throws {
        let server = try Self.cappedOffsetServer()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: offset, limit: 10 }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(try await harness.count("item") == 23)
        #expect(server.requests.map { $0.query("offset") } == ["0", "5", "10", "15", "20", "23"])
        #expect(report.feeds.first?.hasNote("ended: empty page (empty_page)") == true)
    }

    @Test func anOffsetTheAPICapsWithATotalReadsEveryRecord() async throws {
        let server = try Self.cappedOffsetServer(withTotal: true)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: offset, limit: 10, total_path: total }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(try await harness.count("item") == 23)
        #expect(report.feeds.first?.hasNote("ended: total reached (total_reached)") == true)
    }

    @Test func advanceByLimitFailsWhenAShortPageIsFollowedByRecords() async throws {
        let server = try Self.cappedOffsetServer()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: offset, limit: 10, advance: limit }\n" + Self.fields)
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("page 2 holds records after page 1, which held 5 of the 10 records") == true)
        #expect(try await harness.tableNames(like: "item").isEmpty)
    }

    @Test func advanceByLimitStepsByLimit() async throws {
        let server = try JSONPaginationTests.offsetServer(count: 5, withTotal: false)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: offset, limit: 2, advance: limit }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        #expect(server.requests.map { $0.query("offset") } == ["0", "2", "4", "6"])
        #expect(try await harness.count("item") == 5)
    }

    @Test func hasMoreTrueWithoutANextCursorFailsThePass() async throws {
        let server = try LoopbackServer { _ in .json(#"{"items":\#(JSONFeedTest.items(0..<3)),"has_more":true}"#) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: cursor, cursor_path: next, has_more_path: has_more }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .failed)
        #expect(report.feeds.first?.error?.contains("has_more says more follow, but it gives no next cursor") == true)
    }

    @Test func anEmptyPageBeforeTheLastOfTotalPagesFailsThePass() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            return .json(#"{"items":\#(page == 1 ? JSONFeedTest.items(0..<2) : "[]"),"pages":3}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    pagination: { type: page, total_pages_path: pages }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .failed)
        #expect(report.feeds.first?.error?.contains("page 2 does not say it is the last") == true)
    }

    @Test func allowIncompleteMakesAnUnvouchedEndANote() async throws {
        let server = try Self.cursorServerWithAnEmptyMiddlePage()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    pagination: { type: cursor, cursor_path: next, allow_incomplete: true }\n" + Self.fields)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok)
        #expect(try await harness.count("item") == 5)
        #expect(report.feeds.first?.hasNote("ended: stopped early (allow_incomplete) (incomplete)") == true)
    }
}
