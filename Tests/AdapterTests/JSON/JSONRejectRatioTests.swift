import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// A pass that rejects more of its records than `max_reject_ratio` allows fails and changes
/// nothing; one with fewer rejects commits with the status `ok_with_rejects`.
@Suite("json adapter: max_reject_ratio")
struct JSONRejectRatioTests {
    /// A json feed over `items.json` whose `id` is an int (a string id is a reject), stored on
    /// `driver`.
    static func harness(_ extra: String = "", driver: HarnessStore) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: "items.json",
            """
                entity: item
                key: id
                fields: { id: int, name: string }
            \(extra)
            """, files: ["items.json": Data(JSONFeedTest.items(0..<250).utf8)], driver: driver)
    }

    /// `count` items, the first `bad` of them with a string id.
    static func items(_ count: Int, bad: Int) -> Data {
        let items = (0..<count).map { index in
            index < bad ? #"{"id":"\#(index)","name":"bad"}"# : #"{"id":\#(index),"name":"good"}"#
        }
        return Data(("[" + items.joined(separator: ",") + "]").utf8)
    }

    static func text(_ value: FieldValue?) -> String? { if case .text(let text)? = value { text } else { nil } }

    @Test(arguments: HarnessStore.available)
    func aPassThatRejectsEveryRecordFailsAndLeavesTheStoreAsItWas(driver: HarnessStore) async throws {
        let harness = try Self.harness(driver: driver)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok)
        let before = try await harness.rows("SELECT * FROM item ORDER BY id")

        try harness.write("items.json", Self.items(250, bad: 250))
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .failed)
        let error = try #require(feed.error)
        #expect(
            error.contains(
                "feed 'items': 250 of 250 records rejected (100%), above max_reject_ratio 0.5 (first: $[0].id: expected a whole number, found a string '0')"
            ), "\(error)")
        #expect(try await harness.rows("SELECT * FROM item ORDER BY id") == before)
        #expect(
            try await harness.count("_rejects") == 250,
            "the rows roll back with the pass; its rejects are kept with its run")
        let run = try #require(try await harness.rows("SELECT status, error FROM _runs ORDER BY id DESC LIMIT 1").first)
        #expect(run["status"] == .text("failed"))
        #expect(Self.text(run["error"])?.contains("250 of 250 records rejected (100%)") == true)
    }

    @Test(arguments: HarnessStore.available)
    func rejectsWithinTheRatioCommitWithTheStatusOkWithRejects(driver: HarnessStore) async throws {
        let harness = try Self.harness(driver: driver)
        try harness.write("items.json", Self.items(4, bad: 1))
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects, "\(feed.error ?? "")")
        #expect(feed.counts.inserted == 3)
        #expect(try await harness.count("_rejects") == 1)
        let run = try #require(try await harness.rows("SELECT status FROM _runs").first)
        #expect(run["status"] == .text("ok_with_rejects"))
    }

    @Test(arguments: HarnessStore.available)
    func aRatioExactlyAtTheLimitIsWithinIt(driver: HarnessStore) async throws {
        let harness = try Self.harness(driver: driver)
        try harness.write("items.json", Self.items(4, bad: 2))
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects, "\(feed.error ?? "")")
    }

    @Test(arguments: HarnessStore.available)
    func theFeedsOwnRatioDecides(driver: HarnessStore) async throws {
        let strict = try Self.harness("    max_reject_ratio: 0", driver: driver)
        try strict.write("items.json", Self.items(100, bad: 1))
        let failed = try #require(try await strict.run().feeds.first)
        #expect(failed.status == .failed)
        #expect(failed.error?.contains("1 of 100 records rejected (1%), above max_reject_ratio 0") == true)

        let lenient = try Self.harness("    max_reject_ratio: 1", driver: driver)
        try lenient.write("items.json", Self.items(3, bad: 3))
        let passed = try #require(try await lenient.run().feeds.first)
        #expect(passed.status == .okWithRejects, "\(passed.error ?? "")")
    }

    @Test(arguments: HarnessStore.available)
    func aPassWithNoRecordsAndNoRejectsIsOk(driver: HarnessStore) async throws {
        let harness = try Self.harness("    max_reject_ratio: 0", driver: driver)
        try harness.write("items.json", Data("[]".utf8))
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .ok, "\(feed.error ?? "")")
    }
}
