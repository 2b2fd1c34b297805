import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Entity store write modes")
struct WriteModeTests {
    static let registry = AdapterRegistry([ItemsAdapter.self])

    /// The feed over items.json; `max_delete_ratio: 1`, since a replace test deletes most rows on purpose.
    func harness(mode: WriteMode, store: HarnessStore) throws -> FeedHarness {
        try FeedHarness(
            registry: Self.registry,
            yaml:
                "feeds:\n  - { name: items, adapter: items, url: items.json, mode: \(mode.rawValue), max_delete_ratio: 1 }\n",
            files: ["items.json": itemsJSON([("a", 1), ("b", 2), ("c", 3)])], store: store)
    }

    func values(_ harness: FeedHarness) async throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for row in try await harness.rows("SELECT id, value FROM item") {
            if case .text(let id)? = row["id"], case .integer(let value)? = row["value"] { result[id] = value }
        }
        return result
    }

    @Test(arguments: HarnessStore.available)
    func mergeCountsInsertedUpdatedAndUnchangedByContent(driver: HarnessStore) async throws {
        let harness = try harness(mode: .merge, store: driver)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.counts.inserted == 3)

        let second = try #require(try await harness.run().feeds.first)
        #expect((second.counts.inserted, second.counts.updated, second.counts.unchanged) == (0, 0, 3))

        try harness.write("items.json", itemsJSON([("a", 1), ("b", 20), ("d", 4)]))
        let third = try #require(try await harness.run().feeds.first)
        #expect((third.counts.inserted, third.counts.updated, third.counts.unchanged) == (1, 1, 1))
        await #expect(try values(harness) == ["a": 1, "b": 20, "c": 3, "d": 4], "merge never deletes")
    }

    @Test(arguments: HarnessStore.available)
    func mergeMarksChangedRowsWithTheRunThatChangedThem(driver: HarnessStore) async throws {
        let harness = try harness(mode: .merge, store: driver)
        let first = try #require(try await harness.run().feeds.first?.run)
        try harness.write("items.json", itemsJSON([("a", 1), ("b", 20), ("c", 3)]))
        let second = try #require(try await harness.run().feeds.first?.run)
        let runs = try await harness.rows("SELECT id, _run FROM item ORDER BY id").map { $0["_run"] }
        #expect(runs == [.integer(first), .integer(second), .integer(first)])
    }

    @Test(arguments: HarnessStore.available)
    func replaceDeletesRowsThePassDidNotDeliver(driver: HarnessStore) async throws {
        let harness = try harness(mode: .replace, store: driver)
        _ = try await harness.run()
        try harness.write("items.json", itemsJSON([("a", 1), ("d", 4)]))
        let report = try #require(try await harness.run().feeds.first)
        #expect((report.counts.inserted, report.counts.unchanged, report.counts.deleted) == (1, 1, 2))
        await #expect(try values(harness) == ["a": 1, "d": 4])
    }

    @Test(arguments: HarnessStore.available)
    func replaceChangesNothingWhenThePassFails(driver: HarnessStore) async throws {
        let harness = try harness(mode: .replace, store: driver)
        _ = try await harness.run()
        try harness.setConfig(
            "feeds:\n  - { name: items, adapter: items, url: items.json, mode: replace, fail_after: 1 }\n")
        try harness.write("items.json", itemsJSON([("z", 9), ("y", 8)]))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        await #expect(try values(harness) == ["a": 1, "b": 2, "c": 3])
    }

    @Test(arguments: HarnessStore.available)
    func appendKeepsEveryVersionAsHistory(driver: HarnessStore) async throws {
        let harness = try harness(mode: .append, store: driver)
        _ = try await harness.run()
        try harness.write("items.json", itemsJSON([("a", 1), ("b", 20), ("c", 3)]))
        let report = try #require(try await harness.run().feeds.first)
        #expect((report.counts.inserted, report.counts.unchanged) == (1, 2))
        let versions = try await harness.rows("SELECT value FROM item WHERE id = 'b' ORDER BY value").map {
            $0["value"]
        }
        #expect(versions == [.integer(2), .integer(20)])
        #expect(try await harness.count("item") == 4)
    }

    @Test(arguments: HarnessStore.available)
    func aDuplicateKeyInOnePassIsCountedOnceAndTheLastOneWins(driver: HarnessStore) async throws {
        let harness = try harness(mode: .merge, store: driver)
        try harness.write("items.json", itemsJSON([("a", 1), ("a", 2)]))
        let report = try #require(try await harness.run().feeds.first)
        #expect((report.counts.inserted, report.counts.duplicates) == (1, 1))
        await #expect(try values(harness) == ["a": 2])
    }

    @Test(arguments: HarnessStore.available)
    func aDuplicateKeyInOneAppendPassKeepsOneVersionTheLast(driver: HarnessStore) async throws {
        let harness = try harness(mode: .append, store: driver)
        _ = try await harness.run()
        try harness.write("items.json", itemsJSON([("a", 10), ("a", 11), ("b", 2)]))
        let report = try #require(try await harness.run().feeds.first)
        #expect((report.counts.inserted, report.counts.unchanged, report.counts.duplicates) == (1, 1, 1))
        let versions = try await harness.rows("SELECT value FROM item WHERE id = 'a' ORDER BY value").map {
            $0["value"]
        }
        #expect(versions == [.integer(1), .integer(11)], "the pass's last delivery of 'a' is its one new version")
    }

    @Test(arguments: HarnessStore.available)
    func duplicateKeysAreReportedInANoteNamingThem(driver: HarnessStore) async throws {
        let harness = try harness(mode: .merge, store: driver)
        try harness.write("items.json", itemsJSON([("a", 1), ("b", 1), ("a", 2), ("a", 3)]))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.notes == ["2 duplicate item key(s) in this pass ('a'); the last one wins"])
    }
}
