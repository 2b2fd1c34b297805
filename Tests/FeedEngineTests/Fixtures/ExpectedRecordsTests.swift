import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

@Suite("ExpectedRecords")
struct ExpectedRecordsTests {
    let snapshot = RecordSnapshot(tables: [
        "fruit": [
            JSONObject([
                ("_feed", .string("f")), ("_key", .string("apple")), ("price", .number("149")), ("ripe", .bool(true)),
                ("note", .string("line\nbreak \"quoted\" £")), ("weight", .null),
            ])
        ],
        "veg": [],
        RecordSnapshot.rejectsTable: [
            JSONObject([("feed", .string("f")), ("entity", .string("fruit")), ("path", .string("$.fruit[1]"))])
        ],
    ])

    @Test func writtenExpectedRecordsReadBackTheSame() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try ExpectedRecords.write(snapshot, to: folder)
        #expect(try ExpectedRecords.read(from: folder) == snapshot)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("expected").path)
        #expect(files.sorted() == ["_rejects.ndjson", "fruit.ndjson", "veg.ndjson"])
    }

    @Test func writingRemovesTheFilesOfTablesNoLongerProduced() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try ExpectedRecords.write(snapshot, to: folder)
        var smaller = snapshot
        smaller.tables["veg"] = nil
        try ExpectedRecords.write(smaller, to: folder)
        #expect(try ExpectedRecords.read(from: folder).tables.keys.sorted() == ["_rejects", "fruit"])
    }

    @Test func aLineThatIsNotAnObjectIsReportedWithFileAndLine() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = folder.appendingPathComponent("expected")
        try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
        try Data("{\"_key\":\"a\"}\n[1]\n".utf8).write(to: expected.appendingPathComponent("fruit.ndjson"))
        let error = #expect(throws: FixtureError.self) { try ExpectedRecords.read(from: folder) }
        #expect(error?.description.hasSuffix("fruit.ndjson:2: expected a JSON object, found a list") == true)
    }
}
