import ClassifiedFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Classified adapter")
struct ClassifiedAdapterTests {
    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realPayloadsLandElevenCategoriesAndThreeHundredAds() async throws {
        let harness = try ClassifiedFeedFiles.realHarness()
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok)
        #expect(feed.requests == 2)
        #expect(feed.counts.inserted == 311)
        #expect(feed.counts.rejected == 0)
        #expect(try await harness.count("category") == 11)
        #expect(try await harness.count("classified") == 300)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realAdsWithEmptyImagesHaveNullImageColumns() async throws {
        let harness = try ClassifiedFeedFiles.realHarness()
        _ = try await harness.run()
        let emptyImages = try RealListing.ads().filter { $0["images_url"]?.objectValue?.members.isEmpty == true }
        #expect(emptyImages.count == 3)
        let nullImages = try await harness.integers(
            "SELECT id FROM classified WHERE image_small IS NULL AND image_thumb IS NULL ORDER BY id")
        #expect(nullImages == emptyImages.compactMap { $0["id"]?.int64Value }.sorted())
        #expect(try await harness.count("classified") - nullImages.count == 297)
        let anyNull = try await harness.integers(
            "SELECT id FROM classified WHERE image_small IS NULL OR image_thumb IS NULL")
        #expect(anyNull.count == 3, "an ad either has both images or none")
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realAdsCarryTheirSiretWhenPresent() async throws {
        let harness = try ClassifiedFeedFiles.realHarness()
        _ = try await harness.run()
        let withSiret = try RealListing.ads().filter { $0["siret"]?.stringValue != nil }
        #expect(withSiret.count == 22)
        let rows = try await harness.rows("SELECT id, siret FROM classified WHERE siret IS NOT NULL ORDER BY id")
        let stored = rows.compactMap { row -> String? in
            if case .integer(let id)? = row["id"], case .text(let siret)? = row["siret"] {
                "\(id) \(siret)"
            } else {
                nil
            }
        }
        let expected = withSiret.compactMap { ad -> (Int64, String)? in
            guard let id = ad["id"]?.int64Value, let siret = ad["siret"]?.stringValue else { return nil }
            return (id, siret)
        }.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }
        #expect(stored == expected)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func firstAdOfTheDefaultOrderIsTheNewestUrgentOne() async throws {
        let harness = try ClassifiedFeedFiles.realHarness()
        _ = try await harness.run()
        let schema = try #require(ClassifiedAdapter.description.entities.first { $0.name == "classified" })
        let orderBy = schema.order.map { "\"\($0.column)\" \($0.descending ? "DESC" : "ASC")" }.joined(separator: ", ")
        #expect(!orderBy.isEmpty)
        let first = try #require(
            try await harness.rows("SELECT id, is_urgent, created_at FROM classified ORDER BY \(orderBy) LIMIT 1").first
        )
        #expect(first["is_urgent"] == .integer(1))
        // The newest urgent ad, from the payload itself; `+0000` dates sort as text.
        let urgent = try RealListing.ads().filter { $0["is_urgent"]?.boolValue == true }
        let newest = try #require(
            urgent.max { ($0["creation_date"]?.stringValue ?? "") < ($1["creation_date"]?.stringValue ?? "") })
        let newestDate = newest["creation_date"]?.stringValue
        #expect(urgent.filter { $0["creation_date"]?.stringValue == newestDate }.count == 1, "no tie to break")
        #expect(first["id"] == newest["id"]?.int64Value.map(FieldValue.integer))
        #expect(first["created_at"] == newestDate.flatMap(ISO8601.normalized).map(FieldValue.text))
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realAdKeepsItsExactPriceAndUTCDate() async throws {
        let harness = try ClassifiedFeedFiles.realHarness()
        _ = try await harness.run()
        let ad = try #require(try RealListing.ads().first)
        let id = try #require(ad["id"]?.int64Value)
        let row = try #require(try await harness.rows("SELECT * FROM classified WHERE id = ?", [.integer(id)]).first)
        #expect(ad["price"]?.numberText == "140.00")
        #expect(row["price"] == .integer(14000))
        #expect(row["currency"] == .text("EUR"))
        #expect(ad["creation_date"]?.stringValue == "2019-11-05T15:56:59+0000")
        #expect(row["created_at"] == .text("2019-11-05T15:56:59Z"))
        #expect(row["category_id"] == ad["category_id"]?.int64Value.map(FieldValue.integer))
        #expect(row["title"] == ad["title"]?.stringValue.map(FieldValue.text))
        #expect(row["image_small"] == ad["images_url"]?["small"]?.stringValue.map(FieldValue.text))
        #expect(row["image_thumb"] == ad["images_url"]?["thumb"]?.stringValue.map(FieldValue.text))
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func anAdPointingAtAnUnknownCategoryIsRejectedWithItsReason() async throws {
        var ads = try RealListing.ads()
        let target = 17
        ads[target] = try replacing("category_id", with: .number("99"), in: ads[target])
        let harness = try ClassifiedFeedFiles.harness(
            categories: try RealFixtures.data("classified/categories.json"),
            listing: Data(JSONValue.array(ads).jsonText.utf8))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .okWithRejects)
        #expect(feed.counts.rejected == 1)
        #expect(try await harness.count("classified") == 299)
        await #expect(
            try harness.rejectReasons(entity: "classified")
                == ["$[\(target)].category_id: unknown category 99: not in this pass's categories"])
        let id = try #require(ads[target]["id"]?.int64Value)
        await #expect(try harness.integers("SELECT id FROM classified WHERE id = \(id)").isEmpty)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func rerunningWithOneAdChangedUpdatesOnlyThatAd() async throws {
        let harness = try ClassifiedFeedFiles.realHarness()
        let first = try await harness.run()
        #expect(first.feeds.first?.counts.inserted == 311)
        var ads = try RealListing.ads()
        ads[42] = try replacing("title", with: .string("A new title"), in: ads[42])
        try harness.write("listing.json", Data(JSONValue.array(ads).jsonText.utf8))
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.status == .ok)
        // Counts are summed over both entities: the 11 categories, delivered again as they
        // were, are unchanged too, beside the 299 ads.
        #expect(second.counts.updated == 1)
        #expect(second.counts.unchanged == 299 + 11)
        #expect(second.counts.inserted == 0)
        #expect(second.counts.deleted == 0)
        let id = try #require(ads[42]["id"]?.int64Value)
        #expect(
            try await harness.rows("SELECT title FROM classified WHERE id = ?", [.integer(id)]).first?["title"]
                == .text("A new title"))
    }

    @Test(arguments: HarnessStore.available)
    func theCategoryOfAnAdIsAForeignKey(driver: HarnessStore) async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json", driver: driver)
        _ = try await harness.run()
        let parent = driver == .sqlite ? "_feed, _key" : "_feed, id"
        #expect(
            try await harness.foreignKeys(of: "classified") == ["(_feed, category_id) -> category (\(parent)) deferred"]
        )
    }

    @Test(arguments: HarnessStore.available)
    func aSecondRunOfTheSamePayloadsChangesNothing(driver: HarnessStore) async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json", driver: driver)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.counts.inserted == 6)
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.counts.unchanged == 6)
        #expect(second.counts.inserted + second.counts.updated == 0)
    }

    @Test(arguments: HarnessStore.available)
    func offsetsWithoutAColonBecomeUTCAndPricesBecomeMinorUnits(driver: HarnessStore) async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json", driver: driver)
        _ = try await harness.run()
        let rows = try await harness.rows(
            "SELECT id, price, created_at, image_small, image_thumb, siret FROM classified ORDER BY id")
        #expect(rows.map { $0["price"] } == [.integer(14000), .integer(2550), .integer(99)])
        #expect(
            rows.map { $0["created_at"] }
                == [.text("2019-11-05T15:56:59Z"), .text("2019-11-06T08:00:00Z"), .text("2019-11-04T08:00:00Z")])
        #expect(rows[2]["image_small"] == .text("https://img.example/s/103.jpg"))
        #expect(rows[2]["image_thumb"] == .null, "an image missing from images_url is null")
        #expect(rows.map { $0["siret"] } == [.null, .text("123 323 002"), .null])
    }

    @Test(arguments: HarnessStore.available)
    func theCurrencyOptionSetsTheScaleOfMinorUnits(driver: HarnessStore) async throws {
        let harness = try ClassifiedFeedFiles.harness(
            categories: try TestFixtures.data("classified/categories.json"),
            listing: try TestFixtures.data("classified/listing.json"), extra: "    currency: jpy", driver: driver)
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.inserted == 4, "3 categories and the one ad with a whole yen price")
        let row = try #require(try await harness.rows("SELECT price, currency FROM classified").first)
        #expect(row["price"] == .integer(140))
        #expect(row["currency"] == .text("JPY"))
        await #expect(
            try harness.rejectReasons(entity: "classified") == [
                "$[1].price: price 25.5 has more than 0 decimals, too many for JPY",
                "$[2].price: price 0.99 has more than 0 decimals, too many for JPY",
            ])
    }

    @Test func aCurrencyThatIsNotAnISOCodeIsAConfigError() throws {
        let harness = try ClassifiedFeedFiles.harness(
            categories: Data("[]".utf8), listing: Data("[]".utf8), extra: "    currency: euro")
        #expect(throws: ConfigError.self) { try harness.config() }
    }

    @Test(arguments: HarnessStore.available)
    func duplicateAdIdsKeepTheLastOneAndAreReported(driver: HarnessStore) async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "duplicates.json", driver: driver)
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .ok)
        #expect(try await harness.count("classified") == 2)
        #expect(
            try await harness.rows("SELECT title FROM classified WHERE id = 601").first?["title"]
                == .text("second copy"))
        #expect(feed.counts.duplicates == 1)
        #expect(feed.notes.contains("1 duplicate classified key(s) in this pass ('601'); the last one wins"))
    }

    @Test(arguments: HarnessStore.available)
    func theCategoryRelationAndItsLabelFilterAdsByCategoryName(driver: HarnessStore) async throws {
        let schema = try #require(ClassifiedAdapter.description.entities.first { $0.name == "classified" })
        let relation = try #require(schema.relations.first)
        let target = try #require(ClassifiedAdapter.description.entities.first { $0.name == relation.entity })
        let label = try #require(relation.labelColumn)
        #expect(target.key == ["id"])
        #expect(target.columnIndex(label) != nil)
        #expect(schema.columnIndex(relation.column) != nil)

        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json", driver: driver)
        _ = try await harness.run()
        let ids = try await harness.integers(
            """
            SELECT a.id FROM "\(schema.name)" a JOIN "\(target.name)" c
              ON c._feed = a._feed AND c."\(target.key[0])" = a."\(relation.column)"
            WHERE c."\(label)" = 'Mode'
            """)
        #expect(ids == [102])
    }

    @Test func bothListsAreFetchedOverHTTPCategoriesFirst() async throws {
        let categories = try String(decoding: TestFixtures.data("classified/categories.json"), as: UTF8.self)
        let listing = try String(decoding: TestFixtures.data("classified/listing.json"), as: UTF8.self)
        let server = try LoopbackServer { request in
            request.path == "/categories.json" ? .json(categories) : .json(listing)
        }
        let harness = try FeedHarness(
            registry: ClassifiedFeedFiles.registry,
            yaml: """
                feeds:
                  - name: ads
                    adapter: classified
                    categories_url: \(server.url("/categories.json"))
                    listing_url: \(server.url("/listing.json"))
                """)
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .ok)
        #expect(server.requests.map(\.path) == ["/categories.json", "/listing.json"])
        #expect(try await harness.count("classified") == 3)
    }

    private func replacing(_ key: String, with value: JSONValue, in ad: JSONValue) throws -> JSONValue {
        var object = try #require(ad.objectValue)
        let index = try #require(object.members.firstIndex { $0.key == key })
        object.members[index].value = value
        return .object(object)
    }
}
