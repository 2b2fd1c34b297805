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

    /// Runs the feed over `items`, stored on `driver`, and returns the report and the
    /// `path: reason` of each reject.
    static func run(_ items: String, driver: HarnessStore) async throws -> (FeedHarness, FeedReport, [String]) {
        let server = try LoopbackServer { _ in .json(#"{"data":{"items":\#(items)}}"#) }
        let harness = try JSONFeedTest.harness(url: server.url("/items"), yaml, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        return await (harness, report, try JSONFeedTest.rejects(harness))
    }

    @Test(arguments: HarnessStore.available)
    func aValueOfTheWrongTypeIsRejectedWithItsPathWhileGoodRecordsLand(driver: HarnessStore) async throws {
        let (harness, report, rejects) = try await Self.run(
            #"[{"id":1,"cost":{"amount":"abc"}},{"id":2,"cost":{"amount":2.5}},{"id":3,"active":"yes"}]"#,
            driver: driver)
        #expect(report.status == .okWithRejects)
        #expect(report.counts.inserted == 1)
        #expect(report.counts.rejected == 2)
        #expect(try await harness.count("item") == 1)
        #expect(rejects.contains("$.data.items[0].cost.amount: expected a decimal number, found a string 'abc'"))
        #expect(rejects.contains("$.data.items[2].active: expected true or false, found a string 'yes'"))
    }

    @Test(arguments: HarnessStore.available)
    func theRawRecordIsKept(driver: HarnessStore) async throws {
        let (harness, _, _) = try await Self.run(#"[{"id":"one"}]"#, driver: driver)
        let raw = JSONFeedTest.texts(try await harness.rows("SELECT raw FROM _rejects"), "raw")
        #expect(raw == [#"{"id":"one"}"#])
    }

    @Test(arguments: HarnessStore.available)
    func aMissingKeyIsRejected(driver: HarnessStore) async throws {
        let (_, report, rejects) = try await Self.run(#"[{"price":1},{"id":null},{"id":4}]"#, driver: driver)
        #expect(report.counts.inserted == 1)
        #expect(rejects.filter { $0.contains("key field 'id' is missing or null") }.count == 2)
    }

    @Test(arguments: HarnessStore.available)
    func aRecordThatIsNotAnObjectIsRejected(driver: HarnessStore) async throws {
        let (_, _, rejects) = try await Self.run(#"[[1,2],{"id":1}]"#, driver: driver)
        #expect(rejects == ["$.data.items[0]: expected an object, found a list"])
    }

    @Test(arguments: HarnessStore.available)
    func aBadTimestampNamesItsFormat(driver: HarnessStore) async throws {
        let (_, _, rejects) = try await Self.run(#"[{"id":1,"seen":"yesterday"}]"#, driver: driver)
        #expect(rejects == ["$.data.items[0].seen: expected a timestamp (ISO 8601), found 'yesterday'"])
    }

    @Test(arguments: HarnessStore.available)
    func aBadListItemIsRejectedWithItsPosition(driver: HarnessStore) async throws {
        let (_, _, rejects) = try await Self.run(
            #"[{"id":1,"tags":[1,"two"]},{"id":2,"tags":{"a":1}}]"#, driver: driver)
        #expect(rejects.contains("$.data.items[0].tags[1]: expected a whole number, found a string 'two'"))
        #expect(rejects.contains("$.data.items[1].tags: expected a list, found an object"))
    }

    @Test(arguments: HarnessStore.available)
    func recordsMissingFromTheResponseFailTheFeedWithThePath(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in .json(#"{"data":{"rows":[]},"total":0}"#) }
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("at $.data.items: no records here") == true)
    }

    @Test(arguments: HarnessStore.available)
    func aBodyThatIsNotJSONFailsTheFeed(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in .text("<html>oops</html>") }
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("invalid JSON at line 1") == true)
    }
}
