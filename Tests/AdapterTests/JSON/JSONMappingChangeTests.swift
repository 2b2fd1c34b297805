import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A row is never stale against its feed's fields: when the fields change between passes
/// (renamed, swapped, added), the next pass writes every row again with the new mapping, even
/// though the values the API sends did not change.
@Suite("json adapter: a changed mapping rewrites the rows")
struct JSONMappingChangeTests {
    /// Two records with fields `a` and `b`.
    static let body = #"{"items":[{"id":1,"a":"a1","b":"b1"},{"id":2,"a":"a2","b":"b2"}]}"#

    /// The feed's keys with `fields` as given.
    static func feed(fields: String) -> String {
        """
            records: items
            entity: item
            key: id
            fields: \(fields)
        """
    }

    /// A harness whose feed reads `items.json`, a file beside the config.
    static func harness(fields: String, driver: HarnessStore) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: "items.json", feed(fields: fields), files: ["items.json": Data(body.utf8)], driver: driver)
    }

    /// Replaces the feed's fields, keeping its store and everything else.
    static func change(_ harness: FeedHarness, to url: String, fields: String) throws {
        try harness.setConfig(
            """
            feeds:
              - name: items
                adapter: json
                url: \(url)
                retries: 0
            \(feed(fields: fields))
            """)
    }

    /// `column`'s text values, by id.
    static func texts(_ harness: FeedHarness, _ column: String) async throws -> [String] {
        try await harness.rows("SELECT \"\(column)\" AS v FROM item ORDER BY id").map { row in
            if case .text(let text)? = row["v"] { text } else { "NULL" }
        }
    }

    @Test(arguments: HarnessStore.available)
    func renamingAFieldFillsTheNewColumnInEveryRow(driver: HarnessStore) async throws {
        let harness = try Self.harness(fields: "{ id: int, a: string, b: string }", driver: driver)
        _ = try await harness.run()
        try Self.change(harness, to: "items.json", fields: "{ id: int, a: string, b2: { path: b, type: string } }")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok)
        #expect((report.counts.updated, report.counts.unchanged) == (2, 0))
        await #expect(try Self.texts(harness, "b2") == ["b1", "b2"])
        #expect(report.hasNote("fields of 'item' changed"))
    }

    @Test(arguments: HarnessStore.available)
    func swappingTwoFieldsPathsMovesTheValuesToTheirNewColumns(driver: HarnessStore) async throws {
        let harness = try Self.harness(
            fields: "{ id: int, first: { path: a, type: string }, second: { path: b, type: string } }",
            driver: driver)
        _ = try await harness.run()
        try Self.change(
            harness, to: "items.json",
            fields: "{ id: int, second: { path: a, type: string }, first: { path: b, type: string } }")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.updated == 2)
        await #expect(try Self.texts(harness, "first") == ["b1", "b2"])
        await #expect(try Self.texts(harness, "second") == ["a1", "a2"])
    }

    @Test(arguments: HarnessStore.available)
    func addingFieldsToAnExistingEntityFillsThemInEveryRow(driver: HarnessStore) async throws {
        let harness = try Self.harness(fields: "{ id: int }", driver: driver)
        _ = try await harness.run()
        try Self.change(
            harness, to: "items.json",
            fields: "{ id: int, first: { path: a, type: string }, second: { path: b, type: string } }")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.updated == 2)
        await #expect(try Self.texts(harness, "first") == ["a1", "a2"])
        await #expect(try Self.texts(harness, "second") == ["b1", "b2"])
    }

    @Test(arguments: HarnessStore.available)
    func anUnchangedMappingLeavesEveryRowUnchanged(driver: HarnessStore) async throws {
        let harness = try Self.harness(fields: "{ id: int, a: string, b: string }", driver: driver)
        _ = try await harness.run()
        let report = try #require(try await harness.run().feeds.first)
        #expect((report.counts.updated, report.counts.unchanged) == (0, 2))
        #expect(!report.hasNote("fields of 'item' changed"))
    }

    @Test(arguments: HarnessStore.available)
    func aRenameIsAppliedOfflineFromTheCachedResponseWithTheServerStopped(driver: HarnessStore) async throws {
        let server = try LoopbackServer { request in
            let tag = "\"v1\""
            if request.header("if-none-match") == tag { return .status(304, headers: [("ETag", tag)]) }
            return .json(Self.body, headers: [("ETag", tag)])
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.feed(fields: "{ id: int, a: string, b: string }"), driver: driver)
        _ = try await harness.run()
        server.stop()
        try Self.change(
            harness, to: server.url("/items"), fields: "{ id: int, a: string, b2: { path: b, type: string } }")
        let report = try #require(try await harness.run(offline: true).feeds.first)
        #expect(report.counts.updated == 2)
        await #expect(try Self.texts(harness, "b2") == ["b1", "b2"])
    }
}
