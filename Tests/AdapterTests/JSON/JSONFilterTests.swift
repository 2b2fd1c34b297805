import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `filter:` keeps only the records that meet every condition (the `export --where` grammar),
/// for APIs that ignore their date parameters: the others are counted, neither stored nor
/// rejected.
@Suite("json adapter: filter")
struct JSONFilterTests {
    static let items = #"""
        {"items": [
          {"id": 1, "status": "open", "published": "2019-12-01", "price": "9.50"},
          {"id": 2, "status": "open", "published": "2020-01-10", "price": "10.00"},
          {"id": 3, "status": "closed", "published": "2020-01-20", "price": "3"},
          {"id": 4, "status": "OPEN", "published": "2020-01-30", "price": "12"},
          {"id": 5, "status": "open", "published": "2020-02-15", "price": "1.5"}
        ]}
        """#

    static func harness(_ filter: String, server: LoopbackServer) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                records: $.items
                entity: item
                key: id
                fields: { id: int, status: string, published: timestamp, price: decimal }
                filter: \(filter)
            """)
    }

    /// Runs the feed once with every pass starting at 2020-01-31T00:00:00Z.
    static func run(_ harness: FeedHarness) async throws -> FeedReport {
        let fixed = Date(timeIntervalSince1970: 1_580_428_800)
        return try #require(try await harness.run(startDate: fixed).feeds.first)
    }

    @Test func aDateWindowFromThePassStartKeepsOnlyTheRecordsInsideIt() async throws {
        let server = try LoopbackServer { _ in .json(Self.items) }
        let harness = try Self.harness(
            #"["published>={{today-30d|yyyy-MM-dd}}", "published<={{today|yyyy-MM-dd}}", "status~open"]"#,
            server: server)
        let report = try await Self.run(harness)
        #expect(report.status == .ok)
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == [2, 4])
        #expect(report.counts.inserted == 2)
        #expect(report.counts.rejected == 0)
        #expect(try await harness.count("_rejects") == 0)
        #expect(report.hasNote("3 record(s) filtered out"), "\(report.notes)")
    }

    @Test func decimalsCompareByValueAndNotEqualKeepsTheOthers() async throws {
        let server = try LoopbackServer { _ in .json(Self.items) }
        let harness = try Self.harness(#"["price<10", "id!=3"]"#, server: server)
        let report = try await Self.run(harness)
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == [1, 5])
        #expect(report.hasNote("3 record(s) filtered out"), "\(report.notes)")
    }

    @Test func anUnchangedPageCountsOnlyTheKeptRecordsAsUnchanged() async throws {
        let server = try LoopbackServer { request in
            if request.header("if-none-match") == "\"v1\"" { return .status(304, headers: [("ETag", "\"v1\"")]) }
            return .json(Self.items, headers: [("ETag", "\"v1\"")])
        }
        let harness = try Self.harness(#""status=open""#, server: server)
        _ = try await Self.run(harness)
        let second = try await Self.run(harness)
        #expect(second.hasNote("1 page(s) unchanged"), "\(second.notes)")
        #expect((second.counts.unchanged, second.counts.inserted) == (3, 0))
        #expect(second.hasNote("2 record(s) filtered out"), "\(second.notes)")
    }

    @Test func badConditionsAreReportedAtTheirLineAndColumn() throws {
        let problems = try JSONValidationTests.problems(
            JSONValidationTests.valid + #"\#n    filter: ["colour=red", "price", "price<cheap", "id>={{today}}"]"#)
        #expect(
            problems == [
                "11:14: feed 'items': filter 'colour=red': no field 'colour'; fields: id, price",
                "11:28: feed 'items': filter 'price': expected FIELD=VALUE (or !=, <, <=, >, >=, ~ for contains)",
                "11:37: feed 'items': filter 'price<cheap': 'price' is a decimal column; 'cheap' is not",
                "11:52: feed 'items': filter 'id>={{today}}': 'id' is an integer column; '1970-01-01' is not once its template is rendered",
            ])
    }
}
