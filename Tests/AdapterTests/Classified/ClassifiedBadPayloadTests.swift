import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Malformed responses: bad items become rejects with reasons while good ones land; a body that
/// is not a list fails the feed with the URL and JSON path, and the store keeps its earlier rows.
@Suite("Classified adapter: malformed payloads")
struct ClassifiedBadPayloadTests {
    // MARK: Bad items

    @Test func wrongTypesAreRejectedWithReasons() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "wrong-types.json")
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects)
        await #expect(try harness.integers("SELECT id FROM classified") == [208])
        await #expect(
            try harness.rejectReasons(entity: "classified") == [
                "$[0].id: id must be a whole number, found a string",
                "$[1].price: price must be a number, found a string",
                "$[2].is_urgent: is_urgent must be true or false, found a string",
                "$[3].title: title must be a string, found a list",
                "$[4].images_url: images_url must be an object, found a string",
                "$[5].images_url.small: images_url.small must be a string, found a number",
                "$[6].siret: siret must be a string, found a number",
                "$[8]: expected an object, found a list",
            ])
    }

    @Test func missingKeysAndNullsAreRejectedUnlessTheFieldIsOptional() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "missing-and-null.json")
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects)
        await #expect(
            try harness.rejectReasons(entity: "classified") == [
                "$[0].id: id is missing",
                "$[1].category_id: category_id is missing",
                "$[2].title: title is missing",
                "$[3].price: price is missing",
                "$[4].creation_date: creation_date is missing",
                "$[5].is_urgent: is_urgent is missing",
                "$[7]: expected an object, found null",
            ])
        let row = try #require(try await harness.rows("SELECT * FROM classified").first)
        #expect(row["id"] == .integer(307))
        for column in ["description", "image_small", "image_thumb", "siret"] {
            #expect(row[column] == .null, "\(column) is optional")
        }
    }

    @Test func hugeFractionalAndNegativeNumbersAreRejectedWhileExactPricesLand() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "bad-numbers.json")
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects)
        await #expect(
            try harness.rejectReasons(entity: "classified") == [
                "$[0].id: id must be a whole number within the 64-bit range, found 123456789012345678901234567890",
                "$[1].price: price 1e300 is too large",
                "$[2].price: price 1.005 has more than 2 decimals, too many for EUR",
                "$[3].price: price must not be negative, found -5.00",
                "$[4].id: id must be a whole number within the 64-bit range, found 405.5",
            ])
        let rows = try await harness.rows("SELECT id, price FROM classified ORDER BY id")
        #expect(rows.map { $0["price"] } == [.integer(123_456_789), .integer(15_000)])
    }

    @Test func unparseableDatesAreRejectedAndOffsetsAreApplied() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "bad-dates.json")
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects)
        await #expect(
            try harness.rejectReasons(entity: "classified") == [
                "$[0].creation_date: creation_date is not an ISO 8601 date-time: '2019-13-05T15:56:59+0000'",
                "$[1].creation_date: creation_date is not an ISO 8601 date-time: 'yesterday'",
                "$[2].creation_date: creation_date is not an ISO 8601 date-time: '2019-11-05T15:56:59+2400'",
                "$[3].creation_date: creation_date must be a string, found a number",
            ])
        #expect(
            try await harness.rows("SELECT created_at FROM classified").map { $0["created_at"] } == [
                .text("2019-11-06T01:00:00Z")
            ])
    }

    @Test func eachRejectNamesTheResponseItCameFromOfTheTwo() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(categories: "bad-categories.json", listing: "listing.json")
        _ = try await harness.run()
        let sources = try await harness.rows("SELECT DISTINCT entity, url, page FROM _rejects ORDER BY entity").map {
            row in
            "\(row["entity"]?.description ?? "") \(row["url"]?.description ?? "null") \(row["page"]?.description ?? "null")"
        }
        #expect(sources == ["category categories.json 1", "classified listing.json 2"], "\(sources)")
    }

    @Test func badCategoriesAreRejectedAndTheirAdsWithThem() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(categories: "bad-categories.json", listing: "listing.json")
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects)
        await #expect(
            try harness.rejectReasons(entity: "category") == [
                "$[1].id: id must be a whole number, found a string",
                "$[2].name: name is empty",
                "$[3].name: name is missing",
                "$[5]: expected an object, found a string",
            ])
        #expect(try await harness.rows("SELECT id, name FROM category").map { $0["name"] } == [.text("Véhicules")])
        #expect(feed.notes.contains("1 duplicate category key(s) in this pass ('1'); the last one wins"))
        await #expect(
            try harness.rejectReasons(entity: "classified") == [
                "$[1].category_id: unknown category 2: not in this pass's categories",
                "$[2].category_id: unknown category 3: not in this pass's categories",
            ])
        await #expect(try harness.integers("SELECT id FROM classified") == [101])
    }

    @Test func deepNestingInsideAnAdIsARejectNotACrash() async throws {
        let nested = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let listing = """
            [{"id": 1, "category_id": 1, "title": \(nested), "price": 1,
              "creation_date": "2019-11-05T15:56:59+0000", "is_urgent": false}]
            """
        let harness = try ClassifiedFeedFiles.harness(
            categories: try TestFixtures.data("classified/categories.json"), listing: Data(listing.utf8))
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects)
        await #expect(
            try harness.rejectReasons(entity: "classified") == ["$[0].title: title must be a string, found a list"])
    }

    // MARK: Bodies that fail the feed

    @Test func aListingThatIsNotJSONFailsTheFeedAndKeepsEarlierRows() async throws {
        let error = try await failingPass(listing: try TestFixtures.data("classified/not-json.txt"))
        #expect(error.contains("listing.json at $: invalid JSON at line 1, column 1"))
    }

    @Test func anEmptyListingFailsTheFeedAndKeepsEarlierRows() async throws {
        let error = try await failingPass(listing: try TestFixtures.data("classified/empty.json"))
        #expect(error.contains("listing.json at $: invalid JSON"))
        #expect(error.contains("the body is empty"))
    }

    @Test func aTruncatedListingFailsTheFeedAndKeepsEarlierRows() async throws {
        let error = try await failingPass(listing: try TestFixtures.data("classified/truncated.json"))
        #expect(error.contains("listing.json at $: invalid JSON at line 1"))
    }

    @Test func aListingThatIsAnObjectFailsTheFeedWithTheJSONPath() async throws {
        let error = try await failingPass(listing: try TestFixtures.data("classified/listing-object.json"))
        #expect(error.contains("listing.json at $: expected a list, found an object"))
    }

    @Test func aListingNestedBeyondTheParserLimitFailsTheFeed() async throws {
        let depth = JSONParser.maximumDepth + 100
        let body = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = try await failingPass(listing: Data(body.utf8))
        #expect(error.contains("listing.json at $: invalid JSON"))
        #expect(error.contains("nested more than \(JSONParser.maximumDepth) levels deep"))
    }

    @Test func categoriesThatAreNotAListFailTheFeedAndKeepEarlierRows() async throws {
        let error = try await failingPass(categories: Data(#"{"categories": []}"#.utf8))
        #expect(error.contains("categories.json at $: expected a list, found an object"))
    }

    @Test func categoriesThatAreNullFailTheFeed() async throws {
        let error = try await failingPass(categories: Data("null".utf8))
        #expect(error.contains("categories.json at $: expected a list, found null"))
    }

    @Test func aMissingListingFileFailsTheFeedAndKeepsEarlierRows() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json")
        _ = try await harness.run()
        try harness.setConfig(
            """
            feeds:
              - name: ads
                adapter: classified
                categories_url: categories.json
                listing_url: nowhere.json
            """)
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("nowhere.json") == true)
        #expect(try await harness.count("classified") == 3)
    }

    /// Runs a good pass, then one with `categories` and/or `listing` replaced, which must fail;
    /// checks that the store still holds the first pass's rows and returns the error.
    ///
    /// The categories file always gains a category in the failing pass, so a category count that
    /// stays at 3 shows the categories were rolled back with the ads.
    private func failingPass(categories: Data? = nil, listing: Data? = nil) async throws -> String {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json")
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok)
        let grown =
            #"[{"id": 1, "name": "Véhicule"}, {"id": 2, "name": "Mode"}, {"id": 3, "name": "Bricolage"}, {"id": 4, "name": "Maison"}]"#
        try harness.write("categories.json", categories ?? Data(grown.utf8))
        if let listing { try harness.write("listing.json", listing) }
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("feed 'ads'") == true)
        #expect(try await harness.count("category") == 3)
        #expect(try await harness.count("classified") == 3)
        await #expect(try harness.integers("SELECT id FROM classified ORDER BY id") == [101, 102, 103])
        return feed.error ?? ""
    }
}
