import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Child tables (`item__tags`) of an entity whose keys never repeat are keyed by
/// `(_feed, _key, _position)` without rowids; those of an entity that keeps history are rowid
/// tables with an index on `(_feed, _key)`.
@Suite("Store: keys of child tables")
struct ChildTableKeyTests {
    static let fields = "fields: { id: int, tags: { type: list, of: string } }"

    func harness(write mode: String) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: "items.json",
            "    records: items\n    entity: item\n    key: id\n    write: \(mode)\n    \(Self.fields)",
            files: ["items.json": Self.items(tag: "a")])
    }

    static func items(tag: String) -> Data {
        Data(#"{"items":[{"id":1,"tags":["\#(tag)","x"]},{"id":2,"tags":["\#(tag)"]}]}"#.utf8)
    }

    func layout(_ harness: FeedHarness) async throws -> (key: [String], withoutRowid: Bool, parentIndex: Bool) {
        let key = try await harness.rows("SELECT name FROM pragma_table_info('item__tags') WHERE pk > 0 ORDER BY pk")
            .compactMap { if case .text(let name)? = $0["name"] { name } else { nil } }
        let sql = JSONFeedTest.texts(
            try await harness.rows("SELECT sql FROM sqlite_master WHERE name = 'item__tags'"), "sql")
        let index = try await harness.rows("SELECT 1 FROM sqlite_master WHERE name = 'item__tags_parent'")
        return (key, sql.first?.hasSuffix("WITHOUT ROWID") ?? false, !index.isEmpty)
    }

    func tags(_ harness: FeedHarness) async throws -> [String] {
        JSONFeedTest.texts(
            try await harness.rows("SELECT _key || '/' || _position || '=' || value AS t FROM item__tags ORDER BY 1"),
            "t")
    }

    @Test func theChildTableOfAKeyedEntityIsKeyedByRecordAndPlaceWithoutRowids() async throws {
        let harness = try harness(write: "merge")
        _ = try await harness.run()
        let layout = try await layout(harness)
        #expect(layout.key == ["_feed", "_key", "_position"])
        #expect(layout.withoutRowid && !layout.parentIndex)
        await #expect(try tags(harness) == ["1/0=a", "1/1=x", "2/0=a"])
    }

    @Test func theChildTableOfAnEntityThatKeepsHistoryHasRowidsAndItsParentIndex() async throws {
        let harness = try harness(write: "append")
        _ = try await harness.run()
        try harness.write("items.json", Self.items(tag: "b"))
        _ = try await harness.run()
        let layout = try await layout(harness)
        #expect(layout.key.isEmpty && !layout.withoutRowid && layout.parentIndex)
        #expect(try await harness.count("item__tags") == 6, "each version keeps its tags")
    }

    @Test func anOlderStoresChildTableIsKeyedOnItsNextPassAndKeepsItsRows() async throws {
        let harness = try harness(write: "merge")
        _ = try await harness.run()
        // The child table as stores made it before: rowids and an index on (_feed, _key).
        try await harness.execute(
            """
            CREATE TABLE old_tags ("_feed" TEXT NOT NULL, "_key" TEXT NOT NULL, "_position" INTEGER NOT NULL, "value" TEXT);
            INSERT INTO old_tags SELECT * FROM item__tags;
            DROP TABLE item__tags;
            ALTER TABLE old_tags RENAME TO item__tags;
            CREATE INDEX item__tags_parent ON item__tags(_feed, _key);
            """)
        await #expect(try layout(harness).key.isEmpty)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.unchanged == 2)
        let layout = try await layout(harness)
        #expect(layout.key == ["_feed", "_key", "_position"] && layout.withoutRowid && !layout.parentIndex)
        await #expect(try tags(harness) == ["1/0=a", "1/1=x", "2/0=a"])
    }

    @Test func aChildTableGetsRowidsBackWhenAFeedStartsAppendingAndKeepsItsRows() async throws {
        let harness = try harness(write: "merge")
        _ = try await harness.run()
        try harness.setConfig(
            """
            feeds:
              - { name: items, adapter: json, url: items.json, records: items, entity: item, key: id, write: append,
                  \(Self.fields) }
            """)
        try harness.write("items.json", Self.items(tag: "b"))
        _ = try await harness.run()
        let layout = try await layout(harness)
        #expect(layout.key.isEmpty && !layout.withoutRowid && layout.parentIndex)
        #expect(try await harness.count("item__tags") == 6)
    }
}
