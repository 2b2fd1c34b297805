import FeedEngine
import FeedKit
import FeedStoreSQLite
import FeedTestSupport
import Foundation
import Testing

/// A feed's first pass inserts its records many rows per statement (``SQLiteMultiRowInsert``); what
/// it stores is the same as one row at a time.
@Suite("Store: records inserted many rows per statement")
struct BatchedInsertTests {
    /// `count` items `{"id": i, "name": "item-i", "tags": ["a-i", "b-i", ...]}`, item i having
    /// i % 4 tags, with `id` repeated as `repeatedID`'s last item when given.
    static func items(_ count: Int, repeating repeatedID: Int? = nil) -> Data {
        var items = (1...count).map { id in
            let tags = (0..<(id % 4)).map { #""t\#($0)-\#(id)""# }.joined(separator: ",")
            return #"{"id":\#(id),"name":"item-\#(id)","tags":[\#(tags)]}"#
        }
        if let repeatedID { items.append(#"{"id":\#(repeatedID),"name":"again","tags":["last"]}"#) }
        return Data(#"{"items":[\#(items.joined(separator: ","))]}"#.utf8)
    }

    func harness(
        _ files: [String: Data], fields: String = "{ id: int, name: string, tags: { type: list, of: string } }"
    )
        throws -> FeedHarness
    {
        try JSONFeedTest.harness(
            url: "items.json",
            """
                records: items
                entity: item
                key: id
                fields: \(fields)
            """, files: files)
    }

    func text(_ value: FieldValue?) -> String? {
        if case .text(let text)? = value { text } else { nil }
    }

    @Test func everyRowAndChildRowOfAFirstPassIsStoredInOrder() async throws {
        // 150 = 64 + 64 + 16 + 4 + 2: full statements, then smaller ones for the rest.
        let harness = try harness(["items.json": Self.items(150)])
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.inserted == 150)
        let names = try await harness.rows("SELECT name FROM item ORDER BY rowid").compactMap { text($0["name"]) }
        #expect(names == (1...150).map { "item-\($0)" })
        let tags = try await harness.rows(
            "SELECT _key, _position, value FROM item__tags ORDER BY CAST(_key AS INTEGER), _position"
        ).map {
            "\(text($0["_key"]) ?? "?")/\($0["_position"].map(String.init(describing:)) ?? "?")/\(text($0["value"]) ?? "?")"
        }
        let expected = (1...150).flatMap { id in (0..<(id % 4)).map { "\(id)/\($0)/t\($0)-\(id)" } }
        #expect(tags == expected)
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.counts.unchanged == 150)
    }

    @Test func aKeyRepeatedWithinOneStatementKeepsItsLastValuesAndTheRowsTheirOrder() async throws {
        // Six records go in as a statement of four and one of two: the first holds both 3s.
        let items = [(1, "a"), (2, "b"), (3, "c"), (3, "again"), (4, "d"), (5, "e")]
        let body = items.map { #"{"id":\#($0.0),"name":"\#($0.1)","tags":["\#($0.1)"]}"# }.joined(separator: ",")
        let harness = try harness(["items.json": Data(#"{"items":[\#(body)]}"#.utf8)])
        let report = try #require(try await harness.run().feeds.first)
        #expect((report.counts.inserted, report.counts.duplicates) == (5, 1))
        let rows = try await harness.rows("SELECT id, name FROM item ORDER BY rowid")
        #expect(
            rows.map { "\($0["id"].map(String.init(describing:)) ?? "?")=\(text($0["name"]) ?? "?")" } == [
                "1=a", "2=b", "3=again", "4=d", "5=e",
            ])
        #expect(
            try await harness.rows("SELECT value FROM item__tags WHERE _key = '3'").map { text($0["value"]) } == [
                "again"
            ])
        #expect(try await harness.count("item__tags") == 5)
    }

    @Test func aKeyDeliveredAgainInThePassKeepsItsLastValues() async throws {
        // Item 99 is still waiting to be inserted (after the first 64) when it comes again.
        let harness = try harness(["items.json": Self.items(100, repeating: 99)])
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.inserted == 100)
        #expect(report.counts.duplicates == 1)
        #expect(try await harness.rows("SELECT name FROM item WHERE id = 99").map { text($0["name"]) } == ["again"])
        #expect(
            try await harness.rows("SELECT value FROM item__tags WHERE _key = '99'").map { text($0["value"]) } == [
                "last"
            ])
    }
}
