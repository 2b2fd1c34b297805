import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Entity tables are keyed by `(_feed, _key)`, except those of entities a feed appends to.
@Suite("Store: primary keys of entity tables")
struct EntityKeyTests {
    func harness(write mode: String, ids: [Int] = [1, 2]) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: "items.json",
            """
                records: items
                entity: item
                key: id
                write: \(mode)
                fields: { id: int, name: string }
            """, files: ["items.json": Self.items(ids, name: "a")])
    }

    static func items(_ ids: [Int], name: String) -> Data {
        Data(#"{"items":[\#(ids.map { #"{"id":\#($0),"name":"\#(name)"}"# }.joined(separator: ","))]}"#.utf8)
    }

    /// The primary key's columns, in key order.
    func primaryKey(_ harness: FeedHarness) async throws -> [String] {
        try await harness.rows("SELECT name FROM pragma_table_info('item') WHERE pk > 0 ORDER BY pk").compactMap {
            if case .text(let name)? = $0["name"] { name } else { nil }
        }
    }

    @Test func aMergedEntityIsKeyedByFeedAndKey() async throws {
        let harness = try harness(write: "merge")
        _ = try await harness.run()
        await #expect(try primaryKey(harness) == ["_feed", "_key"])
        #expect(try await harness.count("item") == 2)
    }

    @Test func anAppendedEntityHasNoPrimaryKeyAndKeepsEveryVersion() async throws {
        let harness = try harness(write: "append")
        _ = try await harness.run()
        try harness.write("items.json", Self.items([1, 2], name: "b"))
        _ = try await harness.run()
        await #expect(try primaryKey(harness).isEmpty)
        #expect(try await harness.count("item") == 4)
    }

    @Test func aKeyedTableLosesItsKeyWhenAFeedStartsAppendingAndKeepsItsRows() async throws {
        let harness = try harness(write: "merge")
        _ = try await harness.run()
        let before = try await harness.rows("SELECT rowid, _key, name FROM item ORDER BY rowid")
        try harness.setConfig(
            """
            feeds:
              - { name: items, adapter: json, url: items.json, records: items, entity: item, key: id, write: append,
                  fields: { id: int, name: string } }
            """)
        try harness.write("items.json", Self.items([1, 2], name: "b"))
        _ = try await harness.run()
        await #expect(try primaryKey(harness).isEmpty)
        await #expect(try Array(harness.rows("SELECT rowid, _key, name FROM item ORDER BY rowid").prefix(2)) == before)
        #expect(try await harness.count("item") == 4)
        #expect(try await harness.rows("SELECT count(*) AS n FROM item_view") == [["n": .integer(4)]])
    }

    @Test func anEntityThatKeptHistoryStaysUnkeyedUnderAMergeFeed() async throws {
        let harness = try harness(write: "append")
        _ = try await harness.run()
        try harness.write("items.json", Self.items([1, 2], name: "b"))
        _ = try await harness.run()
        try harness.setConfig(
            """
            feeds:
              - { name: items, adapter: json, url: items.json, records: items, entity: item, key: id,
                  fields: { id: int, name: string } }
            """)
        _ = try await harness.run()
        await #expect(try primaryKey(harness).isEmpty, "its rows repeat keys")
    }
}
