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
}
