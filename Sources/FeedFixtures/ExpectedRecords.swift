import FeedEngine
import FeedKit
import Foundation

/// The expected records of a fixture suite: `expected/<table>.ndjson`, one JSON object per line,
/// in the order and shape of a ``RecordSnapshot`` (`expected/_rejects.ndjson` for the rejects).
///
/// The files are meant to be read in review: one record per line, keys in column order, sorted
/// by key, so a change in an adapter shows up as a small diff.
public enum ExpectedRecords {
    /// The folder inside a suite.
    public static let folder = "expected"

    /// Reads every `expected/*.ndjson` of the suite folder `directory`.
    ///
    /// - Throws: ``FixtureError`` naming the file and line of a line that is not a JSON object,
    ///   or when the folder is missing.
    public static func read(from directory: URL) throws(FixtureError) -> RecordSnapshot {
        let expected = directory.appendingPathComponent(folder)
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: expected.path)
        } catch {
            throw FixtureError(
                "no expected records in \(expected.path); run `feedwork test --update` to write them from the fixtures")
        }
        var tables: [String: [JSONObject]] = [:]
        for file in files.sorted() where file.hasSuffix(".ndjson") {
            let url = expected.appendingPathComponent(file)
            guard let data = try? Data(contentsOf: url) else { throw FixtureError("cannot read \(url.path)") }
            var rows: [JSONObject] = []
            for (number, line) in String(decoding: data, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                let value: JSONValue
                do {
                    value = try JSONParser.parse(String(line))
                } catch {
                    throw FixtureError("\(url.path):\(number + 1): \(error)")
                }
                guard let object = value.objectValue else {
                    throw FixtureError("\(url.path):\(number + 1): expected a JSON object, found \(value.kindName)")
                }
                rows.append(object)
            }
            tables[String(file.dropLast(".ndjson".count))] = rows
        }
        return RecordSnapshot(tables: tables)
    }

    /// Writes `snapshot` into `expected/` of the suite folder `directory`, removing files of
    /// tables it no longer has.
    public static func write(_ snapshot: RecordSnapshot, to directory: URL) throws(FixtureError) {
        let expected = directory.appendingPathComponent(folder)
        do {
            try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: expected.path)) ?? []
            for file in existing where file.hasSuffix(".ndjson") {
                if snapshot.tables[String(file.dropLast(".ndjson".count))] == nil {
                    try FileManager.default.removeItem(at: expected.appendingPathComponent(file))
                }
            }
            for (table, rows) in snapshot.tables {
                let text = rows.map { JSONValue.object($0).jsonText + "\n" }.joined()
                try Data(text.utf8).write(to: expected.appendingPathComponent(table + ".ndjson"), options: .atomic)
            }
        } catch {
            throw FixtureError("cannot write the expected records into \(expected.path): \(error)")
        }
    }
}
