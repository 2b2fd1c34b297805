import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Synchronization
import Testing

/// A feed whose requests carry dated templates, recorded days ago and replayed today: the replay
/// starts at the recorded moment, so it makes the recorded requests.
@Suite("Replays of dated requests on a later day")
struct DatedReplayTests {
    static let registry = AdapterRegistry([JSONAdapter.self, DestinationAdapter.self])
    static let recordedAt = Date().addingTimeInterval(-3 * 86_400)
    static let threeDaysAgo: @Sendable () -> Date = { recordedAt }

    /// `date` plus `days`, formatted as `format` in UTC.
    static func day(_ days: Int, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: recordedAt.addingTimeInterval(Double(days) * 86_400))
    }

    /// Records feed `name` of `yaml` as of three days ago, then replays the suite now.
    func recordThenReplay(_ yaml: String, feed name: String, server: LoopbackServer) async throws -> FixtureResult {
        let harness = try FeedHarness(registry: Self.registry, yaml: yaml)
        let config = try harness.config()
        let suite = harness.directory.appendingPathComponent("fixtures/\(name)")
        try await FixtureRecorder(clock: Self.threeDaysAgo).record(
            feed: name, config: config, configText: yaml, to: suite)
        server.stop()
        let loaded = try FixtureSuite.load(directory: suite, name: name, registry: Self.registry)
        return try await FixtureRunner().run(loaded)
    }

    @Test func aJSONFeedWithDateAndTimeTemplatesReplaysDaysLater() async throws {
        let seen = Mutex<[String]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append(request.query("since") ?? "") }
            return .json(#"{"items":[{"id":1,"name":"tea"}]}"#)
        }
        let yaml = """
            feeds:
              - name: shop
                adapter: json
                url: \(server.url("/items"))
                params: { since: "{{today-1d|yyyy-MM-dd}}", at: "{{now|iso}}" }
                records: $.items
                entity: item
                key: id
                fields: { id: int, name: string }
            """
        let result = try await recordThenReplay(yaml, feed: "shop", server: server)
        #expect(seen.withLock { $0 } == [Self.day(-1, "yyyy-MM-dd")], "recorded as of three days ago")
        #expect(result.passed, "\(result.failures) \(result.mismatches)")
    }

    @Test func anIncrementalFeedReplaysWithTheCursorItWasRecordedWith() async throws {
        let seen = Mutex<[String]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append(request.query("since") ?? "") }
            return .json(#"[{"id":1,"updated_at":"2026-01-01T00:00:00Z"}]"#)
        }
        let yaml = """
            feeds:
              - name: events
                adapter: json
                url: \(server.url("/events"))
                entity: event
                key: id
                fields: { id: int, updated_at: timestamp }
                incremental: { cursor_path: updated_at, param: since, start: "{{today-30d|iso}}" }
            """
        let result = try await recordThenReplay(yaml, feed: "events", server: server)
        #expect(seen.withLock { $0 } == [Self.day(-30, "yyyy-MM-dd'T'00:00:00'Z'")])
        #expect(result.passed, "\(result.failures) \(result.mismatches)")
    }

    @Test func aFlightSearchWithDatedParametersReplaysDaysLater() async throws {
        let body =
            #"{"currency":"EUR","data":[{"id":"f1","flyTo":"BCN","cityTo":"Barcelona","price":42,"#
            + #""dTimeUTC":1700000000,"aTimeUTC":1700003600,"mapIdto":"barcelona_es","booking_token":"x","#
            + #""deep_link":"https://example.com/b"}]}"#
        let seen = Mutex<[String]>([])
        let server = try LoopbackServer { request in
            seen.withLock { $0.append(request.query("date_from") ?? "") }
            return .json(body)
        }
        let yaml = """
            feeds:
              - name: flights
                adapter: destination
                source: flights
                url: \(server.url("/flights"))
                params: { date_from: "{{today+1d|dd/MM/yyyy}}", date_to: "{{today+8d|dd/MM/yyyy}}" }
            """
        let result = try await recordThenReplay(yaml, feed: "flights", server: server)
        #expect(seen.withLock { $0 } == [Self.day(1, "dd/MM/yyyy")], "recorded as of three days ago")
        #expect(result.passed, "\(result.failures) \(result.mismatches)")
    }
}
