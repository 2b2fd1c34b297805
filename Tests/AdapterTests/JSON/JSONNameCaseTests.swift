import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// SQLite table and column names ignore case, so names that differ only in case are one name:
/// validation refuses them, and a run refuses one that differs in case from the store's, on
/// every store.
@Suite("json adapter: entity and field names ignore case")
struct JSONNameCaseTests {
    static func feed(name: String = "items", entity: String = "item", fields: String = "{ id: int, price: int }")
        -> String
    {
        """
          - name: \(name)
            adapter: json
            url: items.json
            entity: \(entity)
            key: id
            fields: \(fields)

        """
    }

    @Test func fieldsDifferingOnlyInCaseAreAnErrorAtTheSecondField() throws {
        let problems = try JSONValidationTests.problems(Self.feed(fields: "{ id: int, Price: int, price: int }"))
        #expect(problems.count == 1, "\(problems)")
        #expect(
            problems.first?.hasPrefix(
                "7:43: feed 'items': field 'price' differs from field 'Price' only in case; SQLite column names ignore case"
            ) == true, "\(problems)")
    }

    @Test func listItemFieldsDifferingOnlyInCaseAreAnError() throws {
        let problems = try JSONValidationTests.problems(
            Self.feed(fields: "{ id: int, tags: { type: list, fields: { Sku: string, sku: string } } }"))
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains("field 'sku' differs from field 'Sku' only in case") == true, "\(problems)")
    }

    @Test func entitiesDifferingOnlyInCaseAcrossFeedsAreAnErrorAtTheEntity() throws {
        let problems = try JSONValidationTests.problems(
            Self.feed(name: "a", entity: "Thing") + Self.feed(name: "b", entity: "thing"))
        #expect(problems.count == 1, "\(problems)")
        #expect(
            problems.first?.hasPrefix(
                "11:13: entity 'thing' differs from entity 'Thing' of feed 'a' only in case; SQLite table names ignore case"
            ) == true, "\(problems)")
    }

    /// A harness whose first pass stored entity `item` with fields id and price.
    func storedHarness(store: HarnessStore = .sqlite) async throws -> FeedHarness {
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry, yaml: "feeds:\n" + Self.feed(),
            files: ["items.json": Data(#"[{"id":1,"price":5}]"#.utf8)], store: store)
        let first = try await harness.run()
        #expect(first.succeeded, "\(first.feeds.map(\.error))")
        return harness
    }

    /// On PostgreSQL too, whose quoted names keep their case: every store takes the same entities.
    @Test(arguments: HarnessStore.available)
    func anEntityDifferingOnlyInCaseFromTheStoresFailsTheFeedAndChangesNothing(store: HarnessStore) async throws {
        let harness = try await storedHarness(store: store)
        try harness.setConfig("feeds:\n" + Self.feed(name: "other", entity: "Item"))
        let report = try await harness.run()
        #expect(!report.succeeded)
        #expect(
            report.feeds.first?.error?.contains("entity 'Item' differs from the store's entity 'item' only in case")
                == true, "\(report.feeds.map(\.error))")
        #expect(try await harness.count("item") == 1)
        #expect(try await harness.rows("SELECT name FROM _entities").count == 1)
    }

    @Test func aFieldDifferingOnlyInCaseFromAStoredColumnFailsTheFeed() async throws {
        let harness = try await storedHarness()
        try harness.setConfig("feeds:\n" + Self.feed(fields: "{ id: int, Price: int }"))
        let report = try await harness.run()
        #expect(!report.succeeded)
        #expect(
            report.feeds.first?.error?.contains(
                "column 'Price' of 'item' is spelt 'price' in the store; its column names ignore case, "
                    + "so use 'price' or another name") == true,
            "\(report.feeds.map(\.error))")
    }
}
