import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// A pass never empties a feed by accident: `null` records fail the pass, and a `replace` pass
/// that would delete more than `max_delete_ratio` of the rows, or all of them without
/// `allow_empty`, fails and changes nothing.
@Suite("json adapter: null records and replace's delete limit")
struct JSONReplaceGuardTests {
    /// A server answering whatever `body` holds.
    static func server(_ body: Shared<String>) throws -> LoopbackServer {
        try LoopbackServer { _ in .json(body.value) }
    }

    static func yaml(_ mode: String, extra: String = "") -> String {
        """
            records: data
            entity: item
            key: id
            write: \(mode)
            fields: { id: int, name: string }
        \(extra)
        """
    }

    static func data(_ range: Range<Int>) -> String { #"{"data":\#(JSONFeedTest.items(range))}"# }

    @Test(arguments: HarnessStore.available)
    func nullRecordsInAReplaceFeedFailThePassAndKeepTheRows(driver: HarnessStore) async throws {
        let body = Shared(Self.data(0..<3))
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml("replace"), driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        body.set(#"{"error":"upstream timed out","data":null}"#)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = report.error ?? ""
        #expect(error.contains("items"))
        #expect(error.contains(server.url("/items")))
        #expect(error.contains("data"))
        #expect(error.contains("the records are null"))
        #expect(try await harness.count("item") == 3)
    }

    @Test(arguments: ["merge", "append"])
    func nullRecordsFailEveryWriteMode(_ mode: String) async throws {
        let server = try Self.server(Shared(#"{"data":null}"#))
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml(mode))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("the records are null") == true)
    }

    @Test func nullRecordsAreNoRecordsWhenTheFeedSaysSo() async throws {
        let server = try Self.server(Shared(#"{"data":null}"#))
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml("merge", extra: "    null_records: empty"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
    }

    @Test func aMissingRecordsMemberStillFailsThePass() async throws {
        let server = try Self.server(Shared(#"{"error":"gone"}"#))
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml("merge", extra: "    null_records: empty"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("no records here") == true)
    }

    @Test(arguments: HarnessStore.available)
    func anEmptyListInAMergeFeedDeletesNothing(driver: HarnessStore) async throws {
        let body = Shared(Self.data(0..<3))
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml("merge"), driver: driver)
        _ = try await harness.run()
        body.set(#"{"data":[]}"#)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.deleted == 0)
        #expect(try await harness.count("item") == 3)
    }

    @Test(arguments: HarnessStore.available)
    func anEmptyReplaceAnswerFailsWithoutAllowEmpty(driver: HarnessStore) async throws {
        let body = Shared(Self.data(0..<3))
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml("replace"), driver: driver)
        _ = try await harness.run()
        body.set(#"{"data":[]}"#)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(
            report.error
                == "feed 'items': the pass delivered no item and would delete all 3 of its rows (replace); nothing was changed (allow_empty: true allows a pass that empties the feed)"
        )
        #expect(try await harness.count("item") == 3)
    }

    @Test(arguments: HarnessStore.available)
    func anEmptyReplaceAnswerEmptiesTheFeedWithAllowEmpty(driver: HarnessStore) async throws {
        let body = Shared(Self.data(0..<3))
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml("replace", extra: "    allow_empty: true"), driver: driver)
        _ = try await harness.run()
        body.set(#"{"data":[]}"#)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.deleted == 3)
        #expect(try await harness.count("item") == 0)
    }

    @Test(arguments: HarnessStore.available)
    func aReplacePassDeletingMoreThanMaxDeleteRatioFails(driver: HarnessStore) async throws {
        let body = Shared(Self.data(0..<10))
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml("replace"), driver: driver)
        _ = try await harness.run()
        body.set(Self.data(0..<4))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(
            report.error
                == "feed 'items': the pass would delete 6 of the 10 item rows (60%, replace), above max_delete_ratio 0.5; nothing was changed (a higher max_delete_ratio allows it)"
        )
        #expect(try await harness.count("item") == 10)
    }

    @Test(arguments: HarnessStore.available)
    func aReplacePassWithinMaxDeleteRatioCommits(driver: HarnessStore) async throws {
        let body = Shared(Self.data(0..<10))
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml("replace", extra: "    max_delete_ratio: 0.6"), driver: driver)
        _ = try await harness.run()
        body.set(Self.data(0..<4))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.deleted == 6)
        #expect(try await harness.count("item") == 4)
    }

    @Test func maxDeleteRatioOfTheDefaultsApplies() async throws {
        let body = Shared(Self.data(0..<10))
        let server = try Self.server(body)
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: """
                defaults: { max_delete_ratio: 0.6 }
                feeds:
                  - name: items
                    adapter: json
                    url: \(server.url("/items"))
                    retries: 0
                \(Self.yaml("replace"))
                """)
        _ = try await harness.run()
        body.set(Self.data(0..<4))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.deleted == 6)
    }

    @Test func maxDeleteRatioMustBeARatio() async throws {
        let harness = try JSONFeedTest.harness(
            url: "http://127.0.0.1:9/items", Self.yaml("replace", extra: "    max_delete_ratio: 2"))
        let error = #expect(throws: (any Error).self) { try harness.config() }
        #expect(error.map { "\($0)" }?.contains("max_delete_ratio must be a number between 0 and 1") == true)
    }
}
