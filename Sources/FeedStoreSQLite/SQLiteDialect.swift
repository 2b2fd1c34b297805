import FeedKit
import FeedStore

/// SQLite's SQL where the stores differ (``SQLDialect``).
struct SQLiteDialect: SQLDialect {
    /// `LIKE` ignores ASCII case.
    var like: String { "LIKE" }

    var distinct: String { "IS NOT" }

    var never: String { "0" }

    /// The rowid.
    var tiebreak: String { "t.rowid" }

    /// Exact decimals are stored as text: a `REAL` compares as a number.
    func number(_ column: String) -> String { "CAST(\(column) AS REAL)" }

    /// A `REAL`: `249 / 100.0`.
    func amount(_ column: String, digits: Int) -> String {
        "\(column) / \((0..<digits).reduce(1) { value, _ in value * 10 }).0"
    }

    func textLiteral(_ text: String) -> String { "'\(text)'" }

    /// `json_extract` gives a JSON number as a number and a string as text.
    func keyValue(at index: Int, of field: ExportField) -> String { "json_extract(d.key_values, '$[\(index)]')" }

    /// A cast to the column's storage type: decimals are text, booleans 1 or 0 already.
    func converted(_ column: String, from: ColumnType, to: ColumnType) -> String {
        "CAST(\(column) AS \(to.sqlType))"
    }

    var caseRule: String { "SQLite table names ignore case" }

    var columnNamesSQL: String { "SELECT name FROM pragma_table_info(?) ORDER BY cid" }
    var jsonArrayTexts: String { "SELECT value FROM json_each(?)" }

    /// A subquery that reads each column of the array's objects with `json_extract`: the JSON
    /// text of a time is the ISO 8601 text SQLite stores.
    func jsonRecords(_ columns: [(name: String, kind: SystemColumn.Kind)], as alias: String) -> String {
        let selected = columns.map { "json_extract(value, '$.\($0.name)') AS \($0.name)" }
        return "(SELECT \(selected.joined(separator: ", ")) FROM json_each(?)) AS \(alias)"
    }

    /// `min` of two arguments, which is null when either is: each is the other when null.
    func least(_ first: String, _ second: String) -> String {
        "min(coalesce(\(first), \(second)), coalesce(\(second), \(first)))"
    }

    /// `max` of two arguments, each the other when null.
    func greatest(_ first: String, _ second: String) -> String {
        "max(coalesce(\(first), \(second)), coalesce(\(second), \(first)))"
    }

    var tableExists: String { "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?" }

    func tombstoneKeyValues(_ schema: EntitySchema) -> String {
        "json_array(" + schema.key.map(SQLIdentifier.quoted).joined(separator: ", ") + ")"
    }

    /// The `CREATE` statement SQLite keeps of a table or view, in which a view Feedwork wrote
    /// holds ``EntityView/marker``.
    var viewRecordSQL: String { "SELECT type = 'view', sql FROM sqlite_master WHERE name = ?" }

    var viewMark: String { EntityView.marker }

    /// One `CREATE VIEW` whose text (which SQLite keeps) holds the mark before the query.
    func createView(_ name: String, as select: String) -> (record: String, statements: [String]) {
        let create = "CREATE VIEW \(SQLIdentifier.quoted(name)) AS \(EntityView.marker) \(select)"
        return (create, [create])
    }

    /// ISO 8601 UTC text with milliseconds, as ``Timestamp`` writes it.
    var clock: String { "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')" }
}

/// How the SQLite store declares its system tables (``SystemTables``): times are ISO 8601 UTC
/// text, JSON is text, booleans are `0`/`1`.
extension SQLiteDialect {
    func systemType(_ kind: SystemColumn.Kind) -> String {
        switch kind {
        case .serial, .integer, .boolean: "INTEGER"
        case .text, .time, .json: "TEXT"
        case .bytes: "BLOB"
        }
    }

    var serialPrimaryKey: String { "INTEGER PRIMARY KEY AUTOINCREMENT" }
}
