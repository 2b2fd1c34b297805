import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// An incremental cursor is sent in the API's own format: the cursor field's `format` (a
/// pattern, `unix`), unless `incremental.format` says otherwise, for APIs that read timestamps
/// only the way they write them.
@Suite("json adapter: the cursor in the API's format")
struct JSONCursorFormatTests {
    /// Orders changed at these times (seconds since 1970), served when changed at or after
    /// `since`, which must be written as `pattern` describes; any other `since` is a 400.
    final class StrictAPI: Sendable {
        /// 2026-01-01T10:00:00Z, 2026-01-02T10:00:00Z and 2026-01-03T10:00:13Z.
        let times: [Int64] = [1_767_261_600, 1_767_348_000, 1_767_434_413]
        let sent = Shared<[String?]>([])
        let unix: Bool

        init(unix: Bool) { self.unix = unix }

        /// `seconds` as the API writes it.
        func written(_ seconds: Int64) -> String {
            if unix { return String(seconds) }
            let civil = CivilTime(unixSeconds: seconds)
            return String(civil.iso8601.dropLast().replacingOccurrences(of: "T", with: " "))
        }

        /// `text` as the API reads it, or `nil` when it is not in its format.
        func read(_ text: String) -> Int64? {
            if unix { return text.allSatisfy(\.isNumber) ? Int64(text) : nil }
            guard text.count == 19, text.dropFirst(10).first == " " else { return nil }
            return ISO8601.parse(text.replacingOccurrences(of: " ", with: "T") + "Z").map { Int64($0) }
        }

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            let since = request.query("since")
            sent.set(sent.value + [since])
            var bound: Int64 = .min
            if let since {
                guard let seconds = read(since) else {
                    return .json(#"{"error":"since must be written like \#(written(0))"}"#, status: 400)
                }
                bound = seconds
            }
            let items = times.enumerated().filter { $0.element >= bound }.map { index, time in
                let value = unix ? written(time) : "\"\(written(time))\""
                return #"{"id":\#(index + 1),"changed":\#(value)}"#
            }
            return .json("[" + items.joined(separator: ",") + "]")
        }
    }

    static func harness(_ api: StrictAPI, field: String, incremental: String, driver: HarnessStore) throws -> (
        FeedHarness, LoopbackServer
    ) {
        let server = try LoopbackServer { api.reply($0) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/orders"),
            """
                entity: order
                key: id
                fields: { id: int, changed: \(field) }
                incremental: \(incremental)
            """, driver: driver)
        return (harness, server)
    }

    static func pass(_ harness: FeedHarness) async throws {
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
    }

    @Test(arguments: HarnessStore.available)
    func aPatternFieldsCursorIsSentInItsPattern(driver: HarnessStore) async throws {
        let api = StrictAPI(unix: false)
        let (harness, server) = try Self.harness(
            api, field: #"{ type: timestamp, format: "yyyy-MM-dd HH:mm:ss" }"#,
            incremental: #"{ cursor_path: changed, param: since, start: "2026-01-02 00:00:00" }"#, driver: driver)
        try await Self.pass(harness)
        try await Self.pass(harness)
        #expect(api.sent.value == ["2026-01-02 00:00:00", "2026-01-03 10:00:13"])
        let cursor = try await harness.rows("SELECT value FROM _state WHERE feed = 'items' AND key = 'cursor'")
        #expect(JSONFeedTest.texts(cursor, "value") == ["2026-01-03T10:00:13Z"], "stored in ISO 8601, as always")
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func lagIsTakenBeforeThePatternIsWritten(driver: HarnessStore) async throws {
        let api = StrictAPI(unix: false)
        let (harness, server) = try Self.harness(
            api, field: #"{ type: timestamp, format: "yyyy-MM-dd HH:mm:ss" }"#,
            incremental: #"{ cursor_path: changed, param: since, lag: 1h }"#, driver: driver)
        try await Self.pass(harness)
        try await Self.pass(harness)
        #expect(api.sent.value == [nil, "2026-01-03 09:00:13"])
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func aUnixFieldsCursorIsSentInUnixSeconds(driver: HarnessStore) async throws {
        let api = StrictAPI(unix: true)
        let (harness, server) = try Self.harness(
            api, field: "{ type: timestamp, format: unix }", incremental: "{ cursor_path: changed, param: since }",
            driver: driver)
        try await Self.pass(harness)
        try await Self.pass(harness)
        #expect(api.sent.value == [nil, "1767434413"])
        withExtendedLifetime(server) {}
    }

    @Test func theBlocksFormatOverridesTheFields() async throws {
        let api = StrictAPI(unix: true)
        let (harness, server) = try Self.harness(
            api, field: #"{ type: timestamp, format: "yyyy-MM-dd HH:mm:ss" }"#,
            incremental: "{ cursor_path: changed, param: since, format: unix }", driver: .sqlite)
        // The API writes unix seconds, which the field's pattern cannot read: every record is a reject.
        _ = try await harness.run()
        try await harness.execute(
            "INSERT INTO _state(feed, key, value) VALUES ('items', 'cursor', '2026-01-02T10:00:00Z')")
        _ = try await harness.run()
        #expect(api.sent.value == [nil, "1767348000"])
        withExtendedLifetime(server) {}
    }

    @Test func anUnreadableFormatIsReportedAtItsPlace() throws {
        let problems = try JSONValidationTests.problems(
            """
              - name: items
                adapter: json
                url: https://api.example.com/items
                entity: item
                key: id
                fields: { id: int, changed: timestamp }
                incremental: { cursor_path: changed, param: since, format: "weekday" }
            """)
        #expect(problems.count == 1)
        #expect(
            problems.first?.contains(
                "format must be iso, unix, unix_ms or a pattern with yyyy, MM, dd (and HH, mm, ss), not 'weekday'")
                == true, "\(problems)")
    }
}
