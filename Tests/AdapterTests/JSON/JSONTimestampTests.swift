import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Timestamps as SQL-backed APIs write them, fractions of a second to the microsecond, and an
/// incremental cursor sent exactly as it is stored.
@Suite("json adapter: timestamps")
struct JSONTimestampTests {
    @Test(arguments: HarnessStore.available)
    func spacesZonelessTimesAndMicrosecondsAreRead(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in
            .json(
                #"""
                {"items":[
                  {"id":1,"at":"2024-02-29 10:00:00","unix":"1700000000.000001","ms":1700000000123.5},
                  {"id":2,"at":"2024-02-29T10:00:00.123456789+01:00","unix":1700000000.5,"ms":1700000000000},
                  {"id":3,"at":"2024-02-29 10:00:00.5Z","unix":1700000000,"ms":"1"},
                  {"id":4,"at":"2024-02-29 10:00","unix":1,"ms":1}
                ]}
                """#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                max_reject_ratio: 1
                records: $.items
                entity: item
                key: id
                fields:
                  id: int
                  at: timestamp
                  unix: { type: timestamp, format: unix }
                  ms: { type: timestamp, format: unix_ms }
            """, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        let rows = try await harness.rows("SELECT at, unix, ms FROM item ORDER BY id")
        #expect(
            JSONFeedTest.texts(rows, "at") == [
                "2024-02-29T10:00:00Z", "2024-02-29T09:00:00.123456Z", "2024-02-29T10:00:00.500Z",
            ])
        #expect(
            JSONFeedTest.texts(rows, "unix") == [
                "2023-11-14T22:13:20.000001Z", "2023-11-14T22:13:20.500Z", "2023-11-14T22:13:20Z",
            ])
        #expect(
            JSONFeedTest.texts(rows, "ms") == [
                "2023-11-14T22:13:20.1235Z", "2023-11-14T22:13:20Z", "1970-01-01T00:00:00.001Z",
            ])
        #expect(report.counts.rejected == 1, "a time without seconds is not ISO 8601")
    }

    /// An API that serves the records updated strictly after `since`, comparing times by value.
    final class ChangesAPI: Sendable {
        let sent = Shared<[String?]>([])
        let served = Shared<[Int]>([])
        let records: [(id: Int, updated: String)] = [(1, "2026-01-03T10:00:12.5Z"), (2, "2026-01-03T10:00:13.213Z")]

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            let since = request.query("since")
            sent.set(sent.value + [since])
            let after = since.flatMap(ISO8601.parse) ?? -.infinity
            let picked = records.filter { (ISO8601.parse($0.updated) ?? 0) > after }
            served.set(served.value + [picked.count])
            let items = picked.map { #"{"id":\#($0.id),"updated_at":"\#($0.updated)"}"# }
            return .json(#"{"items":[\#(items.joined(separator: ","))]}"#)
        }
    }

    static func changesFeed(_ api: ChangesAPI, lag: String?, driver: HarnessStore) throws -> (
        FeedHarness, LoopbackServer
    ) {
        let server = try LoopbackServer { api.reply($0) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/changes"),
            """
                records: $.items
                entity: change
                key: id
                fields: { id: int, updated_at: timestamp }
                incremental: { cursor_path: updated_at, param: since\(lag.map { ", lag: \($0)" } ?? "") }
            """, driver: driver)
        return (harness, server)
    }

    @Test(arguments: HarnessStore.available)
    func theCursorIsSentWithItsFractionSoNothingIsReadTwice(driver: HarnessStore) async throws {
        let api = ChangesAPI()
        let (harness, server) = try Self.changesFeed(api, lag: nil, driver: driver)
        _ = try await harness.run()
        _ = try await harness.run()
        _ = try await harness.run()
        #expect(api.sent.value == [nil, "2026-01-03T10:00:13.213Z", "2026-01-03T10:00:13.213Z"])
        #expect(api.served.value == [2, 0, 0])
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func aLagKeepsTheFraction(driver: HarnessStore) async throws {
        let api = ChangesAPI()
        let (harness, server) = try Self.changesFeed(api, lag: "500ms", driver: driver)
        _ = try await harness.run()
        _ = try await harness.run()
        #expect(api.sent.value == [nil, "2026-01-03T10:00:12.713Z"])
        #expect(api.served.value == [2, 1])
        withExtendedLifetime(server) {}
    }
}
