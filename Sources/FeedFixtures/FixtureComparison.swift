import FeedEngine
import FeedKit

/// One difference between the expected records of a fixture suite and what a replay produced.
public struct FixtureMismatch: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A field of a row present on both sides differs; `nil` is a field the row lacks.
        case field(String, expected: JSONValue?, actual: JSONValue?)
        /// An expected row the run did not produce.
        case missing(JSONObject)
        /// A produced row that was not expected.
        case extra(JSONObject)
    }

    /// The entity (or child table, or `_rejects`) of the row.
    public var table: String
    /// Which row: `key "apple" (feed bbc-fruit)`, or feed, entity and path for a reject.
    public var row: String
    public var kind: Kind

    public init(table: String, row: String, kind: Kind) {
        self.table = table
        self.row = row
        self.kind = kind
    }

    /// One line, e.g. `fruit key "apple" (feed bbc-fruit): field price: expected 149, got 150`.
    public var description: String {
        switch kind {
        case .field(let name, let expected, let actual):
            "\(table) \(row): field \(name): expected \(Self.show(expected)), got \(Self.show(actual))"
        case .missing(let object):
            "\(table) \(row): missing, expected \(JSONValue.object(object).jsonText)"
        case .extra(let object):
            "\(table) \(row): not expected, produced \(JSONValue.object(object).jsonText)"
        }
    }

    private static func show(_ value: JSONValue?) -> String { value.map(\.jsonText) ?? "no such field" }
}

/// Compares the expected records of a suite with the produced ones, row by row and field by field.
///
/// Rows are matched by identity: feed and key (and position, for child lists) for entities;
/// feed, entity and path for rejects. Numbers, and the strings of decimal columns, are equal
/// when they denote the same value (`1.50` and `1.5`), so hand-written expectations need not
/// match the written scale; everything else compares exactly.
public enum FixtureComparison {
    /// Every difference, by table name, then in the expected rows' order, then extra rows.
    public static func compare(expected: RecordSnapshot, actual: RecordSnapshot) -> [FixtureMismatch] {
        var mismatches: [FixtureMismatch] = []
        let tables = Set(expected.tables.keys).union(actual.tables.keys).sorted()
        for table in tables {
            mismatches += compare(
                table: table, expected: expected.tables[table] ?? [], actual: actual.tables[table] ?? [],
                decimals: actual.decimalColumns[table, default: []].union(expected.decimalColumns[table, default: []]))
        }
        return mismatches
    }

    static func compare(table: String, expected: [JSONObject], actual: [JSONObject], decimals: Set<String> = [])
        -> [FixtureMismatch]
    {
        let fields =
            table == RecordSnapshot.rejectsTable ? ["feed", "entity", "path"] : ["_feed", "_key", "_position"]
        let expectedRows = identified(expected, by: fields, table: table)
        let actualRows = identified(actual, by: fields, table: table)
        let actualByRow = Dictionary(actualRows.map { ($0.row, $0.object) }, uniquingKeysWith: { first, _ in first })
        let expectedIDs = Set(expectedRows.map(\.row))
        var mismatches: [FixtureMismatch] = []
        for (row, object) in expectedRows {
            guard let produced = actualByRow[row] else {
                mismatches.append(FixtureMismatch(table: table, row: row, kind: .missing(object)))
                continue
            }
            for name in object.keys + produced.keys.filter({ object[$0] == nil }) {
                let (want, got) = (object[name], produced[name])
                if let want, let got, same(want, got, decimal: decimals.contains(name)) { continue }
                mismatches.append(
                    FixtureMismatch(table: table, row: row, kind: .field(name, expected: want, actual: got)))
            }
        }
        for (row, object) in actualRows where !expectedIDs.contains(row) {
            mismatches.append(FixtureMismatch(table: table, row: row, kind: .extra(object)))
        }
        return mismatches
    }

    /// Each row with a readable identity; repeated identities get `#2`, `#3`...
    private static func identified(_ rows: [JSONObject], by fields: [String], table: String)
        -> [(row: String, object: JSONObject)]
    {
        var seen: [String: Int] = [:]
        return rows.map { object in
            var row: String
            if table == RecordSnapshot.rejectsTable {
                row = fields.map { "\($0) \(RecordSnapshot.text(of: object[$0]))" }.joined(separator: ", ")
            } else {
                row = "key \(JSONValue.string(RecordSnapshot.text(of: object["_key"])).jsonText)"
                if let position = object["_position"] { row += " position \(RecordSnapshot.text(of: position))" }
                row += " (feed \(RecordSnapshot.text(of: object["_feed"])))"
            }
            let count = seen[row, default: 0] + 1
            seen[row] = count
            return (count > 1 ? "\(row) #\(count)" : row, object)
        }
    }

    /// Whether two values are the same, numbers (and strings of a `decimal` column) compared by value.
    static func same(_ a: JSONValue, _ b: JSONValue, decimal: Bool = false) -> Bool {
        if decimal, case .string(let left) = a, case .string(let right) = b, left != right,
            let x = ExactDecimal(left), let y = ExactDecimal(right)
        {
            return x == y
        }
        guard case .number(let left) = a, case .number(let right) = b else { return a == b }
        if left == right { return true }
        if let x = ExactDecimal(left), let y = ExactDecimal(right) { return x == y }
        return Double(left) == Double(right)
    }
}
