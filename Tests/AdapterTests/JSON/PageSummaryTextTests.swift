import Testing

@testable import JSONFeed

/// How a page summary is kept in `_state`.
@Suite("json adapter: page summary text")
struct PageSummaryTextTests {
    @Test func aSummaryReadsBackAsWritten() throws {
        let summary = try #require(
            PageSummary(
                json: #"{"etag":"\"v1\"","facts":{"continuation":"https://api/items?after=x","recordCount":2}}"#))
        #expect(PageSummary(json: summary.jsonText) == summary)
        #expect(summary.facts.continuation == "https://api/items?after=x")
    }

    @Test func aSummaryIsWrittenWithItsMembersInNameOrderAndAbsentOnesLeftOut() throws {
        let summary = try #require(
            PageSummary(
                json:
                    #"{"lastModified":"Wed, 21 Oct 2015 07:28:00 GMT","filteredOut":1,"facts":{"totalPages":3,"total":5,"recordCount":2}}"#
            ))
        #expect(
            summary.jsonText
                == #"{"facts":{"recordCount":2,"total":5,"totalPages":3},"filteredOut":1,"lastModified":"Wed, 21 Oct 2015 07:28:00 GMT"}"#
        )
    }

    @Test func aSummaryWrittenByJSONEncoderWithEscapedSlashesReads() throws {
        // Earlier versions stored summaries through JSONEncoder, which writes `/` as `\/`.
        let summary = try #require(
            PageSummary(json: #"{"etag":"W\/\"1\"","facts":{"continuation":"https:\/\/api\/p2","recordCount":7}}"#))
        #expect(summary.etag == #"W/"1""#)
        #expect(summary.facts.continuation == "https://api/p2")
        #expect(summary.facts.recordCount == 7)
    }

    @Test(arguments: [
        "", "[]", #"{"etag":"v1"}"#, #"{"facts":{"recordCount":"2"}}"#, #"{"facts":{"recordCount":2},"etag":3}"#,
        #"{"facts":{"recordCount":2.5}}"#,
    ])
    func anUnreadableSummaryIsNone(text: String) {
        #expect(PageSummary(json: text) == nil)
    }
}
