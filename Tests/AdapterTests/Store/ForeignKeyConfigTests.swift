import FeedEngine
import FeedTestSupport
import Testing

/// A config that appends to an entity its enforced relations point at is refused before any
/// run, at the feed.
@Suite("Config: feeds appending to the parent of an enforced relation")
struct ForeignKeyConfigTests {
    @Test func validationRefusesAFeedAppendingToTheCategoriesItsAdsPointAt() throws {
        let harness = try AdsFeed.harness("three-ads.json", options: "category_write: append", store: .sqlite)
        #expect {
            try harness.config()
        } throws: { error in
            String(describing: error).contains(
                "feeds.yaml:2:5: error: feed 'shop': entity 'category' cannot be written in append mode: the enforced relation classified.category_id -> category points at it"
            )
        }
    }

    @Test func validationAcceptsAppendingToCategoriesWhoseRelationIsNotEnforced() throws {
        let harness = try AdsFeed.harness(
            "three-ads.json", options: "enforced: false, category_write: append", store: .sqlite)
        #expect(try harness.config().feeds.count == 1)
    }
}
