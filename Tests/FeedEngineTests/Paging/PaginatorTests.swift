import FeedKit
import Testing

/// FeedKit's pagination, as every adapter that pages uses it: the pages asked for, the next
/// one from a page's facts, and the checks of a walk.
@Suite("FeedKit: pagination")
struct PaginatorTests {
    static let offset = Paginator(kind: .offset(limit: 10, limitParam: "limit", offsetParam: "offset", start: 0))

    @Test func offsetPagesAdvanceByTheRecordsReceivedUntilAnEmptyPage() throws {
        let first = Self.offset.first
        #expect(first.queryPairs.map { "\($0.0)=\($0.1)" } == ["offset=0", "limit=10"])
        let second = try #require(Self.offset.next(after: first, facts: PageFacts(recordCount: 10), url: "https://x/a"))
        #expect(second.position == 10)
        #expect(second.queryPairs.map { "\($0.0)=\($0.1)" } == ["offset=10", "limit=10"])
        #expect(Self.offset.next(after: second, facts: PageFacts(recordCount: 0), url: "https://x/a") == nil)
        #expect(
            Self.offset.next(after: second, facts: PageFacts(recordCount: 10, total: 20), url: "https://x/a") == nil)
        #expect(Self.offset.next(after: second, facts: PageFacts(recordCount: 4), url: "https://x/a")?.position == 14)
        #expect(Self.offset.next(after: second, facts: PageFacts(recordCount: 4, hasMore: false), url: "") == nil)
    }

    @Test func aStepSaysWhyAWalkEnds() {
        var limited = Self.offset
        limited.offsetStep = .limit
        let first = Self.offset.first
        #expect(limited.next(after: first, facts: PageFacts(recordCount: 4), url: "")?.position == 10)
        #expect(Self.offset.step(after: first, facts: PageFacts(recordCount: 0), url: "") == .end(.emptyPage))
        #expect(
            Self.offset.step(after: first, facts: PageFacts(recordCount: 10, total: 10), url: "") == .end(.totalReached)
        )
        #expect(
            Self.offset.step(after: first, facts: PageFacts(recordCount: 0, hasMore: false), url: "")
                == .end(.hasMoreFalse))
        let cursors = Paginator(kind: .cursor(param: "after", size: nil, sizeParam: "limit"))
        #expect(cursors.step(after: cursors.first, facts: PageFacts(recordCount: 3), url: "") == .end(.noNextPage))
        guard
            case .stuck = cursors.step(
                after: cursors.first, facts: PageFacts(recordCount: 0, continuation: "c"), url: "")
        else {
            Issue.record("an empty cursor page with a cursor and no has_more is stuck")
            return
        }
        let goesOn = cursors.step(
            after: cursors.first, facts: PageFacts(recordCount: 0, continuation: "c", hasMore: true), url: "")
        #expect(goesOn == .next(PageRequest(query: [.init(name: "after", value: "c")], cursor: "c")))
        let links = Paginator(kind: .nextURL)
        let fromEmpty = links.next(
            after: links.first, facts: PageFacts(recordCount: 0, continuation: "p2"), url: "https://x/a")
        #expect(fromEmpty?.link == "https://x/p2")
        let single = Paginator(kind: .none)
        #expect(single.step(after: PageRequest(), facts: PageFacts(recordCount: 1), url: "") == .end(.onePage))
    }

    @Test func checksCatchAShortPageFollowedByRecords() {
        var checks = PageChecks()
        #expect(checks.shortPage(before: PageFacts(recordCount: 10), number: 1, size: 10) == nil)
        #expect(checks.shortPage(before: PageFacts(recordCount: 4), number: 2, size: 10) == nil)
        #expect(checks.shortPage(before: PageFacts(recordCount: 3), number: 3, size: 10)?.number == 2)
        #expect(checks.shortPage(before: PageFacts(recordCount: 0), number: 4, size: 10) == nil)
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
