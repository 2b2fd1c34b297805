import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Writers on hand-made rows, atomic files and the `--all` manifest.
@Suite("export output")
struct ExportOutputTests {
    let fields = [
        ExportField(name: "n", type: .integer), ExportField(name: "ok", type: .boolean),
        ExportField(name: "x", type: .real), ExportField(name: "doc", type: .json), ExportField(name: "s", type: .text),
    ]

    func written(_ format: ExportFormat, _ rows: [[FieldValue]]) throws -> String {
        let output = ExportOutput.memory()
        let table = ExportTable(
            entity: EntitySchema(name: "t", columns: fields.map { Column($0.name, $0.type) }, key: ["n"]))
        var writer = format.makeWriter(for: table, fields: fields)
        try writer.begin(output)
        for row in rows { try writer.write(row, to: output) }
        try writer.end(output)
        try output.flush()
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test func jsonWritesNonFiniteRealsAsNullAndInvalidJSONColumnsAsStrings() throws {
        let text = try written(.ndjson, [[.integer(1), .integer(1), .real(.nan), .text("{oops"), .text("\u{1}")]])
        #expect(text == #"{"n":1,"ok":true,"x":null,"doc":"{oops","s":"\u0001"}"# + "\n")
    }

    @Test func jsonColumnsAreEmbeddedCompactlySoNDJSONStaysOneLinePerRow() throws {
        let text = try written(.ndjson, [[.null, .null, .real(1e-7), .text("{\n  \"a\": 1.50\n}"), .null]])
        #expect(text == #"{"n":null,"ok":null,"x":1e-07,"doc":{"a":1.50},"s":null}"# + "\n")
    }

    @Test func singerDescribesDecimalsAsExactStringsAndTimestampsAsDateTimes() throws {
        let columns = [Column("id", .integer), Column("rate", .decimal), Column("at", .timestamp)]
        let table = ExportTable(entity: EntitySchema(name: "rate", columns: columns, key: ["id"]))
        let output = ExportOutput.memory()
        var writer = ExportFormat.singer.makeWriter(for: table, fields: table.dataFields)
        try writer.begin(output)
        try writer.write([.integer(1), .text("1.0735"), .text("2026-01-31T00:00:00Z")], to: output)
        try output.flush()
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n")
        #expect(
            lines == [
                #"{"type":"SCHEMA","stream":"rate","schema":{"type":"object","properties":{"id":{"type":["integer","null"]},"rate":{"type":["string","null"],"format":"singer.decimal"},"at":{"type":["string","null"],"format":"date-time"}}},"key_properties":["id"]}"#,
                #"{"type":"RECORD","stream":"rate","record":{"id":1,"rate":"1.0735","at":"2026-01-31T00:00:00Z"}}"#,
            ])
    }

    @Test func anEmptyExportIsAnEmptyArrayOrAHeader() throws {
        #expect(try written(.json, []) == "[]\n")
        #expect(try written(.csv, []) == "n,ok,x,doc,s\r\n")
        #expect(try written(.ndjson, []) == "")
    }

    @Test func neutralizedCSVPrefixesOnlyTextCellsThatASpreadsheetReadsAsAFormula() throws {
        let output = ExportOutput.memory()
        let fields = [ExportField(name: "s", type: .text), ExportField(name: "n", type: .integer)]
        var writer = CSVWriter(fields: fields, formulas: .neutralized)
        for text in ["=1+1", "+1", "-1", "@a", "\tx", "\rx", "a=b", "", "'x"] {
            try writer.write([.text(text), .integer(-1)], to: output)
        }
        try output.flush()
        let lines = String(decoding: output.bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(
            lines == [
                "'=1+1,-1", "'+1,-1", "'-1,-1", "'@a,-1", "'\tx,-1", "\"'\rx\",-1", "a=b,-1", "\"\",-1", "'x,-1", "",
            ])
    }

    @Test func atomicFileReplacesTheFileOnlyWhenTheWriteSucceeds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.csv").path
        try AtomicFile.write(to: path) { output in
            var writer = CSVWriter(fields: fields)
            try writer.begin(output)
        }
        #expect(throws: ExportError.self) {
            try AtomicFile.write(to: path) { output in
                var writer = CSVWriter(fields: fields)
                try writer.begin(output)
                try output.flush()
                throw ExportError(.runtime, "disk gone")
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "n,ok,x,doc,s\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
    }

    @Test(arguments: HarnessStore.available)
    func exportAllWritesEveryTableAndAManifestWithRowsColumnsAndTheRun(driver: HarnessStore) async throws {
        let store = try ExportTestStore(
            records:
                #"[{"entity":"item","fields":{"id":1,"price":"2.5"},"children":{"tags":[{"label":"a"}]}},{"entity":"category","fields":{"id":1}}]"#,
            driver: driver
        )
        let run = try #require(try await store.run().first)
        let folder = store.harness.directory.appendingPathComponent("out")
        let manifest = try await store.exporter().exportAll(format: .csv, to: folder.path)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["category.csv", "item.csv", "item__tags.csv", "listing.csv", "manifest.json"])
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["format"] as? String == "csv")
        #expect((json["run"] as? NSNumber)?.int64Value == run)
        let entities = try #require(json["entities"] as? [[String: Any]])
        let rows = Dictionary(
            uniqueKeysWithValues: entities.map { ($0["entity"] as? String ?? "", $0["rows"] as? Int) })
        #expect(rows == ["category": 1, "item": 1, "item__tags": 1, "listing": 0])
        let item = try #require(manifest.entities.first { $0.entity == "item" })
        #expect(item.columns.map(\.name) == ExportTestAdapter.item.columns.map(\.name))
        #expect(item.columns.first { $0.name == "price" }?.json == "string (exact decimal)")
        #expect(manifest.entities.first { $0.entity == "item__tags" }?.parent == "item")
    }
}

/// `json` columns export in one canonical form, so that both stores export them alike.
@Suite("export: json columns in canonical form")
struct CanonicalJSONExportTests {
    static let document =
        #"{"views":1001,"likes":3,"ratio":"0.01","nested":{"b":1e3,"a":[{"z":1,"y":2.50}]},"likes":4}"#
    static let canonical = #"{"likes":4,"nested":{"a":[{"y":2.50,"z":1}],"b":1000},"ratio":"0.01","views":1001}"#

    @Test func membersAreSortedByNameAndNumbersNormalizedAtEveryLevelInEveryFormat() throws {
        let writer = ExportOutputTests()
        let row: [FieldValue] = [.integer(1), .null, .null, .text(Self.document), .null]
        #expect(
            try writer.written(.ndjson, [row]) == #"{"n":1,"ok":null,"x":null,"doc":\#(Self.canonical),"s":null}"#
                + "\n")
        let quoted = "\"" + Self.canonical.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        #expect(try writer.written(.csv, [row]) == "n,ok,x,doc,s\r\n1,,,\(quoted),\r\n")
    }

    @Test(arguments: HarnessStore.available)
    func aJSONColumnExportsTheSameCanonicalTextFromEitherStore(driver: HarnessStore) async throws {
        let records = #"[{"entity":"item","fields":{"id":1,"payload":\#(Self.document)}}]"#
        let store = try ExportTestStore(records: records, driver: driver)
        try await store.run()
        var request = ExportRequest(entity: "item")
        request.columns = ["id", "payload"]
        let ndjson = try await store.export(request, format: .ndjson)
        #expect(ndjson == #"{"id":1,"payload":\#(Self.canonical)}"# + "\n")
        let csv = try await store.export(request, format: .csv)
        let quoted = "\"" + Self.canonical.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        #expect(csv == "id,payload\r\n1,\(quoted)\r\n")
    }
}
