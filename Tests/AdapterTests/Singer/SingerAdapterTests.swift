import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed
import Testing

@Suite("singer adapter: loading a tap")
struct SingerAdapterTests {
    @Test(arguments: HarnessStore.available)
    func eachStreamBecomesAnEntityWithTypedColumns(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("good_tap.py", driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.inserted == 5)
        #expect(try await harness.count("users") == 2)
        #expect(try await harness.count("order_lines") == 3)
        let schemas = try await harness.schemas()
        let users = try #require(schemas["users"])
        #expect(
            users.columns.map { "\($0.name):\($0.type.rawValue)" } == [
                "id:integer", "name:text", "score:decimal", "signedUp:timestamp", "active:boolean", "profile:json",
                "tags:json",
            ])
        #expect(users.key == ["id"])
        #expect(schemas["order_lines"]?.key == ["orderId"])
    }

    @Test(arguments: HarnessStore.available)
    func valuesAreStoredExactlyAndInUTC(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("good_tap.py", driver: driver)
        _ = try await harness.run()
        let rows = try await harness.rows(#"SELECT score, "signedUp", active, profile, tags FROM users ORDER BY id"#)
        #expect(SingerFeedTest.texts(rows, "score") == ["12.5", "7"])
        #expect(SingerFeedTest.texts(rows, "signedUp") == ["2024-03-01T09:00:00Z", "2024-03-02T00:00:00Z"])
        #expect(SingerFeedTest.texts(rows, "profile") == [#"{"city":"London"}"#, "null"])
        #expect(SingerFeedTest.texts(rows, "tags") == [#"["a","b"]"#, "[]"])
    }

    @Test(arguments: HarnessStore.available)
    func aSecondPassOfTheSameRecordsChangesNothing(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("good_tap.py", driver: driver)
        _ = try await harness.run()
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.unchanged == 5)
        #expect(report.counts.inserted == 0 && report.counts.updated == 0)
    }

    @Test(arguments: HarnessStore.available)
    func theLastStateIsStoredWithThePass(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("good_tap.py", driver: driver)
        _ = try await harness.run()
        let state = try await harness.rows("SELECT value FROM _state WHERE feed = 'taps' AND key = 'singer.state'")
        #expect(
            SingerFeedTest.texts(state, "value") == [#"{"bookmarks":{"users":{"signedUp":"2024-03-02T00:00:00Z"}}}"#])
    }

    @Test(arguments: HarnessStore.available)
    func theNextPassResumesFromTheStoredState(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("bookmark_tap.py", "    config: { count: 5 }", driver: driver)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.counts.inserted == 5)
        try harness.setConfig(SingerFeedTest.yaml("bookmark_tap.py", "    config: { count: 8 }"))
        let second = try #require(try await harness.run().feeds.first)
        // The tap read its bookmark: it sent only events 6 to 8, none of the five stored ones.
        #expect(second.counts.inserted == 3)
        #expect(second.counts.unchanged == 0)
        #expect(try await harness.count("events") == 8)
    }

    @Test(arguments: HarnessStore.available)
    func ignoredMessageTypesAreNoted(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("good_tap.py", driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.notes.contains("ignored 1 ACTIVATE_VERSION message(s)"))
    }

    @Test(arguments: HarnessStore.available)
    func theConfigIsPassedAsAPrivateFileWithVariablesInterpolated(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness(
            "config_tap.py", "    config: { token: \"${TOKEN}\", region: eu-west, port: 8080 }",
            environment: ["TOKEN": "s3cret-token"], driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        let row = try #require(
            try await harness.rows("SELECT path, mode, token_length, region, port FROM config").first)
        #expect(row["mode"] == .text("0o600"))
        #expect(row["token_length"] == .integer(12))
        #expect(row["region"] == .text("eu-west"))
        #expect(row["port"] == .integer(8080))
        // Removed after the pass.
        #expect(!FileManager.default.fileExists(atPath: row["path"]?.description ?? ""))
    }

    @Test func aCatalogGivesTheEntitiesBeforeAnyPass() throws {
        let harness = try SingerFeedTest.harness(
            "good_tap.py", "    catalog: \(SingerFeedTest.tap("catalog.json"))")
        let feed = try #require(try harness.config().feeds.first)
        #expect(feed.adapter.entities.map(\.schema.name) == ["users", "order_lines"])
    }

    @Test(arguments: HarnessStore.available)
    func aFeedWithACatalogLoadsItsStreams(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness(
            "good_tap.py", "    catalog: \(SingerFeedTest.tap("catalog.json"))", driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("users") == 2)
        #expect(!report.notes.contains { $0.contains("differs from the catalog") })
    }

    @Test(arguments: HarnessStore.available)
    func streamOptionsNameTheEntityAndItsWriteMode(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness(
            "good_tap.py", "    streams: { order-lines: { entity: orders, write: replace } }", driver: driver)
        _ = try await harness.run()
        #expect(try await harness.count("orders") == 3)
    }

    @Test func aBadStreamOptionIsAConfigErrorAtItsLine() throws {
        let harness = try SingerFeedTest.harness("good_tap.py", "    streams: { users: { entity: \"bad name\" } }")
        #expect(throws: ConfigError.self) { try harness.config() }
    }

    @Test func aTapThatIsNotFoundFailsThePassNamingIt() async throws {
        let harness = try FeedHarness(
            registry: SingerFeedTest.registry,
            yaml: "feeds:\n  - { name: taps, adapter: singer, command: [tap-that-does-not-exist] }")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("'tap-that-does-not-exist' was not found on PATH") == true)
    }
}
