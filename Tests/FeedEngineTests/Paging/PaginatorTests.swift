import FeedKit
import Testing

/// FeedKit's pagination, as every adapter that pages uses it: the pages asked for, the next
/// one from a page's facts, and the checks of a walk.
@Suite("FeedKit: pagination")
struct PaginatorTests {
    static let offset = Paginator(kind: .offset(limit: 10, limitParam: "limit", offsetParam: "offset", start: 0))

    @Test func offsetPagesAdvanceByTheLimitUntilAnEmptyPage() throws {
        let first = Self.offset.first
        #expect(first.queryPairs.map { "\($0.0)=\($0.1)" } == ["offset=0", "limit=10"])
        let second = try #require(Self.offset.next(after: first, facts: PageFacts(recordCount: 10), url: "https://x/a"))
        #expect(second.position == 10)
        #expect(second.queryPairs.map { "\($0.0)=\($0.1)" } == ["offset=10", "limit=10"])
        #expect(Self.offset.next(after: second, facts: PageFacts(recordCount: 0), url: "https://x/a") == nil)
        #expect(Self.offset.next(after: second, facts: PageFacts(recordCount: 4, total: 20), url: "https://x/a") == nil)
        #expect(Self.offset.next(after: second, facts: PageFacts(recordCount: 4, hasMore: false), url: "") == nil)
    }

    @Test func aKnownTotalListsTheRemainingPages() {
        let pages = Paginator(kind: .page(param: "p", start: 1, size: 10, sizeParam: "per"))
        let rest = pages.remaining(after: pages.first, facts: PageFacts(recordCount: 10, total: 35))
        #expect(rest?.map(\.position) == [2, 3, 4])
        #expect(pages.values(for: pages.first, number: 1) == ["page": "1", "limit": "10", "offset": "0"])
        #expect(Self.offset.remaining(after: Self.offset.first, facts: PageFacts(recordCount: 10)) == nil)
    }

    @Test func linksAndCursorsComeFromTheFacts() {
        let links = Paginator(kind: .nextURL)
        let next = links.next(
            after: links.first, facts: PageFacts(recordCount: 1, continuation: "p2"), url: "https://x/v1/a")
        #expect(next?.link == "https://x/v1/p2")
        let cursors = Paginator(kind: .cursor(param: "after", size: nil, sizeParam: "limit"))
        let page = cursors.next(after: cursors.first, facts: PageFacts(recordCount: 1, continuation: "c9"), url: "")
        #expect(page?.cursor == "c9")
        #expect(page?.queryPairs.map { "\($0.0)=\($0.1)" } == ["after=c9"])
        #expect(cursors.unavailableValue("offset") == "{{offset}} has no value with cursor pagination")
    }

    @Test func checksCatchRepeatsAndAShortTotal() throws {
        var checks = PageChecks()
        let first = Self.offset.first
        checks.request(first)
        #expect(checks.repeats(first))
        let second = try #require(Self.offset.next(after: first, facts: PageFacts(recordCount: 1), url: ""))
        #expect(!checks.repeats(second))
        let records = [EntityRecord(entity: "item", key: "1", values: [])]
        #expect(checks.earlierPage(holding: records, number: 1) == nil)
        #expect(checks.earlierPage(holding: records, number: 2) == 1)
        #expect(checks.earlierPage(holding: [], number: 3) == nil)
        checks.count(PageFacts(recordCount: 10, total: 25))
        checks.count(PageFacts(recordCount: 10))
        #expect(checks.shortfall?.delivered == 20)
        #expect(checks.shortfall?.total == 25)
        checks.count(PageFacts(recordCount: 5))
        #expect(checks.shortfall == nil)
    }
}
