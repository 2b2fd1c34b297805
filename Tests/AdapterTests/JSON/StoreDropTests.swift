import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `feedwork drop`: an entity's tables, view and `_entities` row, or one feed's rows and
/// state, removed in one transaction; names the store does not hold are refused.
@Suite("store: dropping an entity or a feed")
struct StoreDropTests {
    static let body = #"{"items":[{"id":1,"name":"a","tags":["x","y"]},{"id":2,"name":"b","tags":[]}]}"#

    /// Two feeds writing `item` (with a child table of tags), and one writing `old_item`.
    static func harness(driver: HarnessStore) throws -> FeedHarness {
        try FeedHarness(
            registry: JSONFeedTest.registry,
            yaml: """
                feeds:
                  - { name: items, adapter: json, url: items.json, records: items, entity: item, key: id, fields: { id: int, name: string, tags: { type: list, of: string } } }
                  - { name: more, adapter: json, url: items.json, records: items, entity: item, key: id, fields: { id: int, name: string, tags: { type: list, of: string } } }
                  - { name: old, adapter: json, url: items.json, records: items, entity: old_item, key: id, fields: { id: int, name: string } }
                """, files: ["items.json": Data(body.utf8)], store: driver)
    }

    @Test(arguments: HarnessStore.available)
    func droppingAnEntityRemovesItsTablesViewAndSchemaOnly(driver: HarnessStore) async throws {
        let harness = try Self.harness(driver: driver)
        #expect(try await harness.run().feeds.allSatisfy { $0.status == .ok })
        #expect(try await harness.tableNames(like: "old_item%") == ["old_item", "old_item_view"])
        let message = try await harness.config().drop(.entity("old_item"))
        #expect(message.hasPrefix("dropped entity 'old_item': its table (2 rows)"))
        #expect(try await harness.tableNames(like: "old_item%") == [])
        #expect(try await harness.schemas().keys.sorted() == ["item"], "export --all lists the store's entities")
        #expect(try await harness.count("item") == 4)
        #expect(try await harness.tableNames(like: "item%") == ["item", "item__tags", "item_view"])
        _ = try await harness.config().drop(.entity("item"))
        #expect(try await harness.tableNames(like: "item%") == [])
    }

    @Test(arguments: HarnessStore.available)
    func droppingAFeedRemovesItsRowsAndStateButKeepsItsRuns(driver: HarnessStore) async throws {
        let harness = try Self.harness(driver: driver)
        #expect(try await harness.run().feeds.allSatisfy { $0.status == .ok })
        let message = try await harness.config().drop(.feed("more"))
        #expect(message.hasPrefix("dropped feed 'more': 2 rows"))
        #expect(try await harness.rows("SELECT DISTINCT _feed FROM item").map { $0["_feed"] } == [.text("items")])
        #expect(try await harness.rows("SELECT DISTINCT _feed FROM item__tags").map { $0["_feed"] } == [.text("items")])
        #expect(try await harness.rows("SELECT key FROM _http_cache WHERE feed = 'more'").isEmpty)
        #expect(try await harness.rows("SELECT id FROM _runs WHERE feed = 'more'").count == 1)
    }

    @Test(arguments: HarnessStore.available)
    func namesTheStoreDoesNotHoldAreRefusedAndNothingChanges(driver: HarnessStore) async throws {
        let harness = try Self.harness(driver: driver)
        _ = try await harness.run(feeds: ["old"])
        await #expect(throws: StoreError.self) { try await harness.config().drop(.entity("nope")) }
        do {
            _ = try await harness.config().drop(.entity("nope"))
        } catch let error as StoreError {
            #expect(error.message == "no entity 'nope' in the store; its entities: old_item")
        }
        do {
            _ = try await harness.config().drop(.feed("never"))
            Issue.record("a feed that never ran was dropped")
        } catch let error as StoreError {
            #expect(error.message == "no feed 'never' in the store: it has never run")
        }
        #expect(try await harness.count("old_item") == 2)
    }
}
