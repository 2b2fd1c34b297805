import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A store written before a relation was enforced (by an earlier Feedwork, or an adapter that
/// did not enforce it yet) gains the foreign key on its next pass, or says why it cannot and
/// stays exactly as it was.
@Suite("Store: foreign keys of older stores")
struct ForeignKeyMigrationTests {
    /// What a refused pass must leave as it found it: the tables' rows with their rowids, their
    /// foreign keys, the stored schemas and the runs that committed (the refused pass is
    /// recorded as failed, with its error).
    func snapshot(_ harness: FeedHarness) async throws -> [[String: FieldValue]] {
        let categories = try await harness.rowsWithRowids("category", columns: "id, name")
        let classifieds = try await harness.rowsWithRowids("classified", columns: "id, category_id, title")
        let foreignKeys = try await harness.foreignKeys(of: "classified").map { ["foreign key": FieldValue.text($0)] }
        let entities = try await harness.rows("SELECT name, schema FROM _entities ORDER BY name")
        return categories + classifieds + foreignKeys + entities
            + (try await harness.rows("SELECT id, status FROM _runs WHERE status <> 'failed' ORDER BY id"))
    }

    @Test(arguments: HarnessStore.available)
    func anOlderStoreGainsTheForeignKeyOnItsNextPassKeepingRowsAndRowids(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", options: "enforced: false", store: driver)
        _ = try await harness.run()
        #expect(try await harness.foreignKeys(of: "classified").isEmpty)
        let before = try await harness.rowsWithRowids("classified", columns: "id, category_id, title")
        try harness.setConfig(AdsFeed.yaml())
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.unchanged == 6)
        #expect(try await harness.foreignKeys(of: "classified").count == 1)
        #expect(try await harness.rowsWithRowids("classified", columns: "id, category_id, title") == before)
        #expect(try await harness.rows("SELECT count(*) AS n FROM classified_view") == [["n": .integer(3)]])
    }

    @Test(arguments: HarnessStore.available)
    func anOlderStoreWhoseAdsPointAtNothingIsRefusedNamingARowAndLeftAsItWas(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("unknown-category.json", options: "enforced: false", store: driver)
        _ = try await harness.run()
        let before = try await snapshot(harness)
        try harness.setConfig(AdsFeed.yaml())
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = report.error ?? ""
        #expect(
            error.contains(
                "the enforced relation classified.category_id -> category cannot become a foreign key: 1 row of classified points at nothing (first: feed 'shop': the classified '104' has category_id 9"
            ), "\(error)")
        #expect(error.hasSuffix("fix or delete them, then run again; nothing was changed"), "\(error)")
        let store = driver == .sqlite ? try harness.config().storePath + ": " : "postgres://"
        #expect(error.hasPrefix(store), "the error names the store: \(error)")
        await #expect(try snapshot(harness) == before)
    }

    /// A config that appends to `category` and enforces no relation passes validation; the
    /// store knows what an earlier config declared.
    @Test(arguments: HarnessStore.available)
    func aFeedAppendingToACategoryThatAStoredForeignKeyPointsAtIsRefused(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", store: driver)
        _ = try await harness.run()
        let before = try await snapshot(harness)
        try harness.setConfig(AdsFeed.yaml("enforced: false, category_write: append"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(
            report.error?.contains(
                "entity 'category' cannot be written in append mode: the enforced relation classified.category_id -> category points at it"
            ) == true, "\(report.error ?? "")")
        await #expect(try snapshot(harness) == before)
    }

    @Test(arguments: HarnessStore.available)
    func enforcingARelationToACategoryThatKeptHistoryIsRefused(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness(
            "three-ads.json", options: "enforced: false, category_write: append", store: driver)
        _ = try await harness.run()
        let before = try await snapshot(harness)
        try harness.setConfig(AdsFeed.yaml())
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let store = driver == .sqlite ? try harness.config().storePath : "postgres://"
        let error = report.error ?? ""
        #expect(error.hasPrefix(store), "\(error)")
        #expect(
            error.contains(
                ": the relation classified.category_id -> category is enforced, but 'category' keeps history (a feed writes it in append mode)"
            ), "\(error)")
        #expect(error.components(separatedBy: store).count == 2, "the store is named once: \(error)")
        await #expect(try snapshot(harness) == before)
    }

    @Test(arguments: HarnessStore.available)
    func aCategoryThatNoEnforcedRelationPointsAtAnyMoreMayKeepHistory(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", store: driver)
        _ = try await harness.run()
        try harness.setConfig(AdsFeed.yaml("enforced: false"))
        _ = try await harness.run()
        #expect(try await harness.foreignKeys(of: "classified").isEmpty, "the foreign key goes with the enforcement")
        try harness.setConfig(AdsFeed.yaml("enforced: false, category_write: append"))
        try harness.write("ads.json", try AdsFeed.fixture("category-renamed.json"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("category") == 4, "a second version of category 2")
    }
}
