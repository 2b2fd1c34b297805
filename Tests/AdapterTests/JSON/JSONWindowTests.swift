import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `incremental: {window: 7d}` reads a long range in windows, for APIs that refuse a query over
/// a range longer than their cap; each window (or `windows_per_pass` of them) commits in a pass
/// of its own, with the cursor at its end, the passes following one another within one run, so
/// an interrupted backfill resumes at the first window not committed.
@Suite("json adapter: date windows")
struct JSONWindowTests {
    /// One event a day at noon for the 90 days before 2026-01-10, served for `[from, to)`; a
    /// range over 31 days, or none, is refused with a 400.
    final class EventsAPI: Sendable {
        static let end: Int64 = 1_768_003_200  // 2026-01-10T00:00:00Z, FeedHarness.fixedStart
        static let day: Int64 = 86_400
        /// The ranges asked for, as `from to`, refused ones included.
        let asked = Shared<[String]>([])
        /// A `from` that fails with a 500, once.
        let failOnce = Shared<String?>(nil)

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            let from = request.query("from") ?? ""
            let to = request.query("to") ?? ""
            asked.set(asked.value + ["\(from) \(to)"])
            guard let start = ISO8601.parse(from).map(Int64.init), let end = ISO8601.parse(to).map(Int64.init),
                end > start, end - start <= 31 * Self.day
            else { return .json(#"{"error":"give from and to, at most 31 days apart"}"#, status: 400) }
            if failOnce.value == from {
                failOnce.set(nil)
                return .json(#"{"error":"down"}"#, status: 500)
            }
            let events = (1...90).map { Self.end - Int64($0) * Self.day + Self.day / 2 }.sorted()
                .filter { $0 >= start && $0 < end }
            let items = events.map { #"{"id":\#($0 / Self.day),"at":"\#(CivilTime(unixSeconds: $0).iso8601)"}"# }
            return .json("[" + items.joined(separator: ",") + "]")
        }

        /// The ISO text of `days` days before the end.
        static func before(_ days: Int64) -> String { CivilTime(unixSeconds: end - days * day).iso8601 }
    }

    static func harness(_ api: EventsAPI, incremental: String, driver: HarnessStore) throws -> (
        FeedHarness, LoopbackServer
    ) {
        let server = try LoopbackServer { api.reply($0) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/events"),
            """
                entity: event
                key: id
                fields: { id: int, at: timestamp }
                incremental: \(incremental)
            """, driver: driver)
        return (harness, server)
    }

    static func pass(_ harness: FeedHarness) async throws -> FeedReport {
        try #require(try await harness.run(startDate: FeedHarness.fixedStart).feeds.first)
    }

    static func cursor(_ harness: FeedHarness) async throws -> String? {
        JSONFeedTest.texts(
            try await harness.rows("SELECT value FROM _state WHERE feed = 'items' AND key = 'cursor'"), "value"
        ).first
    }

    static let backfill = #"{ cursor_path: at, param: from, end_param: to, start: "{{today-90d|iso}}", window: 7d"#

    @Test(arguments: HarnessStore.available)
    func aNinetyDayBackfillIsReadInSevenDayWindows(driver: HarnessStore) async throws {
        let api = EventsAPI()
        let (whole, wholeServer) = try Self.harness(
            api,
            incremental:
                #"{ cursor_path: at, param: from, end_param: to, end: "{{now|iso}}", start: "{{today-90d|iso}}" }"#,
            driver: driver)
        #expect(try await Self.pass(whole).status == .failed, "the API refuses the 90 days at once")

        api.asked.set([])
        let (harness, server) = try Self.harness(api, incremental: Self.backfill + " }", driver: driver)
        let report = try await Self.pass(harness)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.inserted == 90)
        #expect(report.requests == 13, "90 days in windows of 7: 12 whole and one of 6")
        let expected = (0..<13).map { index in
            "\(EventsAPI.before(90 - 7 * Int64(index))) \(EventsAPI.before(max(0, 83 - 7 * Int64(index))))"
        }
        #expect(api.asked.value == expected, "each window starts where the last ended: no gap, no overlap")
        #expect(try await Self.cursor(harness) == "2026-01-10T00:00:00Z")
        #expect(report.hasNote("committed in 13 passes, one after another (runs 1 to 13)"))
        #expect(
            report.hasNote("incremental: read window 1 of 13 (7d), \(EventsAPI.before(90)) to \(EventsAPI.before(83))"))
        #expect(report.hasNote("incremental: read window 13 of 13 (7d)"))
        #expect(report.run == 13)

        // Each window committed in a run of its own, its rows with it: 7 a window, 6 the last.
        let runs = try await harness.rows(
            "SELECT _run, count(*) AS n FROM event GROUP BY _run ORDER BY _run")
        #expect(runs.map { $0["n"] } == (Array(repeating: 7, count: 12) + [6]).map { FieldValue.integer($0) })
        let committed = try await harness.rows(
            "SELECT id FROM _runs WHERE feed = 'items' AND status = 'ok' ORDER BY id")
        #expect(committed.map { $0["id"] } == (1...13).map { FieldValue.integer($0) })

        // The next pass reads from the last window's end: nothing new yet.
        let next = try await Self.pass(harness)
        #expect(next.requests == 0)
        #expect(next.hasNote("no window to read"))
        withExtendedLifetime((server, wholeServer)) {}
    }

    @Test(arguments: HarnessStore.available)
    func aFailedPassLeavesTheWindowsCommittedBeforeItAndTheNextRunResumesAfterThem(driver: HarnessStore)
        async throws
    {
        let api = EventsAPI()
        let (harness, server) = try Self.harness(
            api, incremental: Self.backfill + ", windows_per_pass: 5 }", driver: driver)
        api.failOnce.set(EventsAPI.before(41))  // the second pass's third window
        let failed = try await Self.pass(harness)
        #expect(failed.status == .failed)
        #expect(failed.counts.inserted == 35, "the first pass's 5 windows committed")
        #expect(failed.hasNote("1 pass(es) committed first (run 1)"))
        #expect(failed.hasNote("incremental: read windows 1 to 5 of 13 (7d)"))
        #expect(try await Self.cursor(harness) == EventsAPI.before(55), "the failed pass committed nothing")
        #expect(try await harness.count("event") == 35)

        let resumed = try await Self.pass(harness)
        #expect(resumed.status == .ok, "\(resumed.error ?? "")")
        #expect(resumed.counts.inserted == 55)
        #expect(resumed.hasNote("incremental: read windows 6 to 10 of 13 (7d)"))
        #expect(resumed.hasNote("incremental: read windows 11 to 13 of 13 (7d)"))
        #expect(try await harness.count("event") == 90)
        #expect(try await Self.cursor(harness) == "2026-01-10T00:00:00Z")
        let starts = api.asked.value.map { String($0.split(separator: " ")[0]) }
        let expected =
            [90, 83, 76, 69, 62] + [55, 48, 41] + [55, 48, 41, 34, 27] + [20, 13, 6]
        #expect(starts == expected.map { EventsAPI.before(Int64($0)) }, "resumed at the first window not committed")
        withExtendedLifetime(server) {}
    }

    @Test func aBackfillUnderWayGoesOnFromItsCursorWithoutLag() async throws {
        let api = EventsAPI()
        let (harness, server) = try Self.harness(api, incremental: Self.backfill + ", lag: 2d }", driver: .sqlite)
        let report = try await Self.pass(harness)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.requests == 13, "each window once: the lag is not taken off a backfill's own cursor")
        #expect(try await harness.count("event") == 90)
        #expect(try await harness.rows("SELECT * FROM _state WHERE feed = 'items' AND key = 'window.done'").isEmpty)

        // Caught up, the next pass starts from the cursor less the lag.
        api.asked.set([])
        let next = try await Self.pass(harness)
        #expect(api.asked.value == ["\(EventsAPI.before(2)) \(EventsAPI.before(0))"])
        #expect(next.hasNote("incremental: read window 1 of 1 (7d)"))
        withExtendedLifetime(server) {}
    }

    @Test func aFullRefreshBackfillCommitsWindowByWindowAndEnds() async throws {
        let api = EventsAPI()
        let (harness, server) = try Self.harness(api, incremental: Self.backfill + " }", driver: .sqlite)
        #expect(try await Self.pass(harness).counts.inserted == 90)
        api.asked.set([])
        var engine = try await Engine.open(try harness.config(), startDate: FeedHarness.fixedStart)
        engine.fullRefresh = true
        let report = try #require(await engine.run().feeds.first)
        try await engine.close()
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.unchanged == 90)
        #expect(api.asked.value.count == 13, "read again from start, then each pass after its last commit")
        withExtendedLifetime(server) {}
    }

    @Test func theWindowsBoundsGoInTemplatesInTheCursorsFormat() async throws {
        let asked = Shared<[String]>([])
        let server = try LoopbackServer { request in
            asked.set(asked.value + [request.path])
            return .json("[]")
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/events/{{window.start}}/{{window.end}}"),
            """
                entity: event
                key: id
                fields: { id: int, day: { type: timestamp, format: yyyy-MM-dd } }
                incremental: { cursor_path: day, start: "2025-12-01", end: "2025-12-21", window: 10d }
            """)
        let report = try await Self.pass(harness)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(asked.value == ["/events/2025-12-01/2025-12-11", "/events/2025-12-11/2025-12-21"])
        #expect(try await Self.cursor(harness) == "2025-12-21T00:00:00Z")
        withExtendedLifetime(server) {}
    }

    @Test func windowProblemsAreReportedAtTheirPlace() throws {
        func problems(_ incremental: String, url: String = "https://api.example.com/events") throws -> [String] {
            try JSONValidationTests.problems(
                """
                  - name: items
                    adapter: json
                    url: \(url)
                    entity: event
                    key: id
                    fields: { id: int, at: timestamp }
                    incremental: \(incremental)
                """)
        }
        #expect(
            try problems("{ cursor_path: at, param: from, end_param: to, window: 7d }").first?.contains(
                "window needs start") == true)
        #expect(
            try problems("{ cursor_path: id, param: from, end_param: to, start: '1', window: 7d }").contains {
                $0.contains("window applies to timestamp cursors only")
            })
        #expect(
            try problems("{ cursor_path: at, param: from, start: '2025-01-01T00:00:00Z', window: 7d }") == [
                "8:89: feed 'items': window needs end_param (the query parameter each window's end is sent in), or {{window.end}} in url, params, headers or body"
            ])
        #expect(
            try problems(
                "{ cursor_path: at, param: from, end_param: to, start: '2025-01-01T00:00:00Z', window: 7d }\n    extra: columns"
            )
            .contains { $0.contains("window cannot be combined with extra: columns") })
        #expect(
            try problems("{ cursor_path: at, param: from, windows_per_pass: 2 }").first?.contains(
                "windows_per_pass needs window") == true)
        #expect(
            try problems("{ cursor_path: at, param: from, end_param: to, start: 'soon', window: 7d }").first?.contains(
                "start 'soon' is not a timestamp") == true)
        #expect(
            try problems(
                "{ cursor_path: at, param: from }", url: "https://api.example.com/events?from={{window.start}}"
            )
            .first?.contains("{{window.start}} needs window in the incremental: block") == true)
    }
}
