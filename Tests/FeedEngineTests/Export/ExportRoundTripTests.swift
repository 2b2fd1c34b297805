import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Every column type written through the real engine, exported in each format and read back by
/// independent readers (JSONSerialization, Python's csv module).
@Suite("export round trip")
struct ExportRoundTripTests {
    /// The values of each record, as the adapter received them.
    static var records: [[String: Any]] {
        [
            [
                "id": 1, "amount": 1.5, "name": "comma, \"quotes\"\nnew line\r\ncafé ✓ 日本 🍐", "active": true,
                "price": "12345678901234567890.123456789", "seen_at": "2024-05-01T10:00:00Z",
                "payload": ["a": [1, 2.5, "x"], "b": NSNull()], "note": NSNull(),
            ],
            [
                "id": 9_007_199_254_740_993, "amount": 0.1, "name": "", "active": false, "price": "-0.01",
                "seen_at": "1970-01-01T00:00:00Z", "payload": [1, "two"], "note": "tab\there \\ backslash",
            ],
            ["id": -3],
        ]
    }

    static let columns = ExportTestAdapter.item.columns.map(\.name)

    static func recordsJSON() throws -> String {
        let items = records.map { ["entity": "item", "fields": $0] }
        return String(decoding: try JSONSerialization.data(withJSONObject: items), as: UTF8.self)
    }

    func makeStore(driver: HarnessStore) async throws -> ExportTestStore {
        let store = try ExportTestStore(records: try Self.recordsJSON(), driver: driver)
        try await store.run()
        return store
    }

    /// Checks one exported object against the record it came from.
    func expectMatches(_ object: [String: Any], _ record: [String: Any]) {
        #expect(object.keys.sorted() == Self.columns.sorted())
        #expect((object["id"] as? NSNumber)?.int64Value == (record["id"] as? NSNumber)?.int64Value)
        #expect(object["amount"] as? Double == record["amount"] as? Double)
        #expect(object["name"] as? String == record["name"] as? String)
        #expect((object["active"] as? NSNumber)?.boolValue == (record["active"] as? NSNumber)?.boolValue)
        #expect(object["price"] as? String == record["price"] as? String)
        #expect(object["seen_at"] as? String == record["seen_at"] as? String)
        #expect(object["note"] as? String == record["note"] as? String)
        for column in Self.columns where record[column] == nil || record[column] is NSNull {
            #expect(object[column] is NSNull, "\(column) should be null")
        }
        if let payload = record["payload"] {
            let exported = (object["payload"] as? NSObject)
            #expect(exported?.isEqual(payload) == true, "payload \(String(describing: exported))")
        }
    }

    @Test(arguments: HarnessStore.available)
    func ndjsonLinesParseBackToTheWrittenValues(driver: HarnessStore) async throws {
        let text = try await makeStore(driver: driver).export(ExportRequest(entity: "item"), format: .ndjson)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Self.records.count + 1)
        #expect(lines.last == "")
        let sorted = Self.records.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        for (line, record) in zip(lines, sorted) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            expectMatches(object, record)
        }
    }

    @Test(arguments: HarnessStore.available)
    func jsonArrayParsesBackToTheWrittenValues(driver: HarnessStore) async throws {
        let text = try await makeStore(driver: driver).export(ExportRequest(entity: "item"), format: .json)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(objects.count == Self.records.count)
        let sorted = Self.records.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        for (object, record) in zip(objects, sorted) { expectMatches(object, record) }
    }

    @Test(arguments: HarnessStore.available)
    func jsonKeepsBooleansIntegersAndDecimalsAsTheirJSONTypes(driver: HarnessStore) async throws {
        let text = try await makeStore(driver: driver).export(ExportRequest(entity: "item"), format: .ndjson)
        #expect(text.contains(#""id":9007199254740993,"#))
        #expect(text.contains(#""active":true,"#))
        #expect(text.contains(#""active":false,"#))
        #expect(text.contains(#""price":"12345678901234567890.123456789","#))
        #expect(text.contains(#""amount":0.1,"#))
    }

    @Test(arguments: HarnessStore.available)
    func csvParsedByPythonHasTheHeaderInSchemaOrderAndEveryValue(driver: HarnessStore) async throws {
        let text = try await makeStore(driver: driver).export(ExportRequest(entity: "item"), format: .csv)
        let rows = try PythonCSV.parse(text)
        #expect(rows.first == Self.columns)
        #expect(rows.count == Self.records.count + 1)
        let sorted = Self.records.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        for (row, record) in zip(rows.dropFirst(), sorted) {
            let cells = Dictionary(uniqueKeysWithValues: zip(Self.columns, row))
            for column in Self.columns where column != "payload" {
                #expect(cells[column] == Self.csvText(record[column], column: column), "column \(column)")
            }
            // A JSON column holds the document's text.
            if let expected = record["payload"] {
                let payload = try JSONSerialization.jsonObject(with: Data((cells["payload"] ?? "").utf8)) as? NSObject
                #expect(payload?.isEqual(expected) == true)
            } else {
                #expect(cells["payload"] == "")
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func csvQuotesFieldsHoldingCommasQuotesAndNewlinesWithCRLFRecords(driver: HarnessStore) async throws {
        let text = try await makeStore(driver: driver).export(ExportRequest(entity: "item"), format: .csv)
        #expect(text.hasPrefix("id,amount,name,active,price,seen_at,payload,note\r\n"))
        #expect(text.contains(#","comma, ""quotes""\#nnew line\#r\#ncafé ✓ 日本 🍐","#))
        #expect(text.contains(#"-3,,,,,,,\#r\#n"#), "nulls are empty fields")
        #expect(text.contains(#",0.1,"",false,"#), "an empty string is quoted")
    }

    @Test(arguments: HarnessStore.available)
    func childTablesExportWithTheirParentKeyAndPosition(driver: HarnessStore) async throws {
        let store = try ExportTestStore(
            records:
                #"[{"entity":"item","fields":{"id":7},"children":{"tags":[{"label":"a,b","weight":2},{"label":"c"}]}}]"#,
            driver: driver
        )
        try await store.run()
        let text = try await store.export(ExportRequest(entity: "item__tags"), format: .csv)
        let rows = try PythonCSV.parse(text)
        #expect(
            rows == [
                ["_feed", "_key", "_position", "label", "weight"], ["main", "7", "0", "a,b", "2"],
                ["main", "7", "1", "c", ""],
            ])
    }

    /// What the CSV holds for a value the adapter received.
    static func csvText(_ value: Any?, column: String) -> String {
        switch value {
        case nil, is NSNull: return ""
        case let text as String: return text
        case let number as NSNumber where column == "active": return number.boolValue ? "true" : "false"
        case let number as NSNumber where column == "amount": return String(number.doubleValue)
        case let number as NSNumber: return number.stringValue
        case let other?: return String(describing: other)
        }
    }
}
