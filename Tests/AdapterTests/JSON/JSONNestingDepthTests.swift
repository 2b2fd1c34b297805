import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A hostile API answering with a document nested a million levels deep fails the pass with
/// the parser's depth error: the process goes on, the store keeps what it held, and the run is
/// recorded as failed.
@Suite("json adapter: deeply nested responses")
struct JSONNestingDepthTests {
    /// A loopback API answering `good` until `hostile` is set, then `bad`.
    static func server(good: Data, bad: Data, hostile: Shared<Bool>) throws -> LoopbackServer {
        try LoopbackServer { _ in .data(hostile.value ? bad : good) }
    }

    static func expectFailedAndUnchanged(
        _ harness: FeedHarness, hostile: Shared<Bool>, message: String
    ) async throws {
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok, "\(first.error ?? "")")
        let before = try await harness.rows("SELECT id FROM item ORDER BY id")
        #expect(before.count == 1)

        hostile.set(true)
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains(message) == true, "\(feed.error ?? "")")
        #expect(try await harness.rows("SELECT id FROM item ORDER BY id") == before)
        let runs = try await harness.rows("SELECT status FROM _runs ORDER BY id").map { $0["status"] }
        #expect(runs == [.text("ok"), .text("failed")])
    }

    @Test(arguments: HarnessStore.available)
    func xmlNestedAMillionLevelsDeepFailsThePass(driver: HarnessStore) async throws {
        let levels = 1_000_000
        let bad = Data(
            ("<shop>" + String(repeating: "<a>", count: levels) + String(repeating: "</a>", count: levels)
                + "</shop>").utf8)
        let hostile = Shared(false)
        let server = try Self.server(
            good: Data("<shop><item><id>1</id></item></shop>".utf8), bad: bad, hostile: hostile)
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items.xml"),
            """
                format: xml
                records: shop/item
                entity: item
                key: id
                fields: { id: int }
            """, driver: driver)
        try await Self.expectFailedAndUnchanged(
            harness, hostile: hostile, message: "elements nested more than \(XMLReader.maximumDepth) levels deep")
    }

    @Test(arguments: HarnessStore.available)
    func jsonNestedAMillionLevelsDeepFailsThePass(driver: HarnessStore) async throws {
        let levels = 1_000_000
        let bad = Data(
            (#"{"items":"# + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}").utf8)
        let hostile = Shared(false)
        let server = try Self.server(good: Data(#"{"items":[{"id":1}]}"#.utf8), bad: bad, hostile: hostile)
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                records: $.items
                entity: item
                key: id
                fields: { id: int }
            """, driver: driver)
        try await Self.expectFailedAndUnchanged(
            harness, hostile: hostile, message: "nested more than \(JSONParser.maximumDepth) levels deep")
    }
}
