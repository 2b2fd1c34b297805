import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// An enforced relation is a SQL foreign key from the child's `(_feed, column)` to the
/// parent's rows of the same feed, checked when a pass commits.
@Suite("Store: foreign keys of enforced relations")
struct ForeignKeyTests {
    /// The parent columns the foreign key references: SQLite's key, PostgreSQL's key column
    /// (whose type matches the child's).
    static func parentKey(_ store: HarnessStore) -> String { store == .sqlite ? "_feed, _key" : "_feed, id" }

    /// The ads and categories as they stand, to compare a store before and after a failure.
    func contents(_ harness: FeedHarness) async throws -> [[String: FieldValue]] {
        try await harness.rows("SELECT _key, name FROM category ORDER BY _key")
            + harness.rows("SELECT _key, category_id, title FROM classified ORDER BY _key")
            + harness.rows("SELECT count(*) AS tombstones FROM _tombstones")
    }

    @Test(arguments: HarnessStore.available)
    func anEnforcedRelationIsADeferredForeignKeyThatSQLToolsSee(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", store: driver)
        _ = try await harness.run()
        #expect(
            try await harness.foreignKeys(of: "classified") == [
                "(_feed, category_id) -> category (\(Self.parentKey(driver))) deferred"
            ])
        #expect(try await harness.foreignKeys(of: "category").isEmpty)
    }

    @Test(arguments: HarnessStore.available)
    func anUnenforcedRelationDeclaresNoForeignKey(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("unknown-category.json", options: "enforced: false", store: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.foreignKeys(of: "classified").isEmpty)
        #expect(try await harness.count("classified") == 2, "an ad may name a category the feed lacks")
    }

    @Test(arguments: HarnessStore.available)
    func rawSQLInsertingAnAdOfAnUnknownCategoryFails(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", store: driver)
        _ = try await harness.run()
        let now = driver == .sqlite ? "'2024-01-01T00:00:00Z'" : "now()"
        let insert = """
            INSERT INTO classified (_feed, _key, _hash, _run, _first_seen, _last_seen, id, category_id, title)
            VALUES ('shop', '%@', 0, 1, \(now), \(now), %@, %@, 'Lampe')
            """
        await #expect(throws: (any Error).self) { try await harness.execute(String(format: insert, "104", "104", "9")) }
        await #expect(throws: (any Error).self, "the category of another feed is not this feed's") {
            try await harness.execute(
                String(format: insert.replacingOccurrences(of: "'shop'", with: "'other'"), "105", "105", "1"))
        }
        try await harness.execute(String(format: insert, "106", "106", "3"))
        #expect(try await harness.count("classified") == 4)
    }

    /// Runs `harness` over `payload` after a first pass over `three-ads.json`, expects the pass to
    /// fail because `ad` points at the missing `category`, and the store to be as the first pass
    /// left it (categories, ads and tombstones).
    func expectPassRefused(_ harness: FeedHarness, over payload: String, ad: String, category: Int) async throws {
        _ = try await harness.run()
        let before = try await contents(harness)
        try harness.write("ads.json", try AdsFeed.fixture(payload))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = report.error ?? ""
        #expect(
            error.contains(
                "feed 'shop': the classified '\(ad)' has category_id \(category), which is not a key of the feed's category; the pass would leave it pointing at nothing through the enforced relation classified.category_id -> category, so it fails; nothing was changed"
            ), "\(error)")
        await #expect(try contents(harness) == before)
    }

    @Test(arguments: HarnessStore.available)
    func aPassWritingAnAdOfACategoryItLacksFailsNamingTheRelationAndChangesNothing(driver: HarnessStore)
        async throws
    {
        let harness = try AdsFeed.harness("three-ads.json", store: driver)
        try await expectPassRefused(harness, over: "unknown-category.json", ad: "104", category: 9)
    }

    @Test(arguments: HarnessStore.available)
    func aReplacePassDroppingACategoryThatAnAdStillNamesFailsAndChangesNothing(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", options: "category_write: replace", store: driver)
        try await expectPassRefused(harness, over: "category-dropped.json", ad: "103", category: 3)
    }

    @Test(arguments: HarnessStore.available)
    func aReplacePassMayDropACategoryThatNoAdNames(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("four-categories.json", options: "category_write: replace", store: driver)
        _ = try await harness.run()
        try harness.write("ads.json", try AdsFeed.fixture("three-ads.json"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.deleted == 1)
        #expect(try await harness.count("category") == 3)
    }

    @Test(arguments: HarnessStore.available)
    func aReplacePassOfTheAdsMayDropAnAd(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness(
            "three-ads.json", options: "category_write: replace, classified_write: replace", store: driver)
        _ = try await harness.run()
        try harness.write("ads.json", try AdsFeed.fixture("category-dropped.json"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.deleted == 2, "category 3 and ad 103, which named it")
        #expect(try await harness.count("classified") == 2)
    }

    @Test(arguments: HarnessStore.available)
    func anAdEntityThatStartsKeepingHistoryKeepsItsForeignKey(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", store: driver)
        _ = try await harness.run()
        try harness.setConfig(AdsFeed.yaml("classified_write: append"))
        try harness.write("ads.json", try AdsFeed.fixture("category-dropped.json"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("classified") == 4, "102 has a second version")
        #expect(
            try await harness.foreignKeys(of: "classified") == [
                "(_feed, category_id) -> category (\(Self.parentKey(driver))) deferred"
            ])
    }

    @Test(arguments: HarnessStore.available)
    func theStoredSchemaSaysTheRelationIsEnforced(driver: HarnessStore) async throws {
        let harness = try AdsFeed.harness("three-ads.json", store: driver)
        _ = try await harness.run()
        let relation = try #require(try await harness.schemas()["classified"]?.relations.first)
        #expect(relation.enforced)
        let stored = try await harness.rows("SELECT schema FROM _entities WHERE name = 'classified'")
        guard case .text(let json)? = stored.first?["schema"] else {
            Issue.record("no stored schema")
            return
        }
        #expect(json.contains(#""enforced":true"#), "\(json)")
    }
}
