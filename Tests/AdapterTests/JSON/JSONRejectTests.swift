import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("json adapter: rejects")
struct JSONRejectTests {
    static let yaml = """
            max_reject_ratio: 1
            records: $.data.items
            entity: item
            key: id
            fields:
              id: int
              price: { path: cost.amount, type: decimal }
              active: { type: bool }
              seen: { type: timestamp }
              tags: { type: list, of: int }
        """

    /// Runs the feed over `items` and returns the report and the `path: reason` of each reject.
    static func run(_ items: String) async throws -> (FeedHarness, FeedReport, [String]) {
        let server = try LoopbackServer { _ in .json(#"{"data":{"items":\#(items)}}"#) }
        let harness = try JSONFeedTest.harness(url: server.url("/items"), yaml)
        let report = try #require(try await harness.run().feeds.first)
        let rejects = try harness.rows("SELECT path, reason FROM _rejects ORDER BY id").map { row in
            "\(row["path"]?.description ?? ""): \(row["reason"]?.description ?? "")"
        }
        return (harness, report, rejects)
    }

    @Test func aValueOfTheWrongTypeIsRejectedWithItsPathWhileGoodRecordsLand() async throws {
        let (harness, report, rejects) = try await Self.run(
            #"[{"id":1,"cost":{"amount":"abc"}},{"id":2,"cost":{"amount":2.5}},{"id":3,"active":"yes"}]"#)
        #expect(report.status == .okWithRejects)
        #expect(report.counts.inserted == 1)
        #expect(report.counts.rejected == 2)
        #expect(try harness.count("item") == 1)
        #expect(rejects.contains("$.data.items[0].cost.amount: expected a decimal number, found a string 'abc'"))
        #expect(rejects.contains("$.data.items[2].active: expected true or false, found a string 'yes'"))
    }

    @Test func theRawRecordIsKept() async throws {
        let (harness, _, _) = try await Self.run(#"[{"id":"one"}]"#)
        let raw = JSONFeedTest.texts(try harness.rows("SELECT raw FROM _rejects"), "raw")
        #expect(raw == [#"{"id":"one"}"#])
    }

    @Test func aMissingKeyIsRejected() async throws {
        let (_, report, rejects) = try await Self.run(#"[{"price":1},{"id":null},{"id":4}]"#)
        #expect(report.counts.inserted == 1)
        #expect(rejects.filter { $0.contains("key field 'id' is missing or null") }.count == 2)
    }

    @Test func aRecordThatIsNotAnObjectIsRejected() async throws {
        let (_, _, rejects) = try await Self.run(#"[[1,2],{"id":1}]"#)
        #expect(rejects == ["$.data.items[0]: expected an object, found a list"])
    }

    @Test func aBadTimestampNamesItsFormat() async throws {
        let (_, _, rejects) = try await Self.run(#"[{"id":1,"seen":"yesterday"}]"#)
        #expect(rejects == ["$.data.items[0].seen: expected a timestamp (ISO 8601), found 'yesterday'"])
    }

    @Test func aBadListItemIsRejectedWithItsPosition() async throws {
        let (_, _, rejects) = try await Self.run(#"[{"id":1,"tags":[1,"two"]},{"id":2,"tags":{"a":1}}]"#)
        #expect(rejects.contains("$.data.items[0].tags[1]: expected a whole number, found a string 'two'"))
        #expect(rejects.contains("$.data.items[1].tags: expected a list, found an object"))
    }

    @Test func recordsMissingFromTheResponseFailTheFeedWithThePath() async throws {
        let server = try LoopbackServer { _ in .json(#"{"data":{"rows":[]},"total":0}"#) }
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("at $.data.items: no records here") == true)
    }

    @Test func aBodyThatIsNotJSONFailsTheFeed() async throws {
        let server = try LoopbackServer { _ in .text("<html>oops</html>") }
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("invalid JSON at line 1") == true)
    }
}
