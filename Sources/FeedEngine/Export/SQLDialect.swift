/// Where the SQL of an export differs between the stores: SQLite (the default) and PostgreSQL.
///
/// ``ExportQuery`` writes its statement with `?` parameters and the pieces below; the
/// PostgreSQL form numbers the parameters (`$1`, `$2`...) at the end.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// Case-insensitive `contains` (SQLite's `LIKE` ignores ASCII case; PostgreSQL's `ILIKE`
    /// ignores case).
    var like: String { self == .sqlite ? "LIKE" : "ILIKE" }

    /// `!=` that keeps rows whose value is null.
    var distinct: String { self == .sqlite ? "IS NOT" : "IS DISTINCT FROM" }

    /// A decimal column as a value that compares as a number: SQLite stores exact decimals as
    /// text; PostgreSQL's `numeric` compares exactly as it is.
    func number(_ column: String) -> String { self == .sqlite ? "CAST(\(column) AS REAL)" : column }

    /// What breaks ties in an order, so that an export is stable: insertion order, from SQLite's
    /// rowid or PostgreSQL's `_row` (``PostgresEntityTable/commonColumns``).
    var tiebreak: String { self == .sqlite ? "t.rowid" : "t._row" }

    /// What breaks ties for a child table, whose rows have no `_run` (and on SQLite no rowid:
    /// see `SQLiteEntityTable+ChildKey.swift`): the record and the place in its list.
    var childTiebreak: String { "t._feed, t._key, t._position" }

    /// A condition that never holds.
    var never: String { self == .sqlite ? "0" : "false" }

    /// The expression that selects `field` of the table aliased `t`: PostgreSQL gives
    /// timestamps and JSON as the text SQLite stores (records' times normalized, the store's
    /// own with milliseconds).
    func select(_ field: ExportField) -> String {
        let column = "t." + SQLIdentifier.quoted(field.name)
        guard self == .postgres, [.timestamp, .json].contains(field.type) else { return column }
        return storedText(column, field: field) + " AS " + SQLIdentifier.quoted(field.name)
    }

    /// `column` (holding `field`) as the text `~` (contains) searches: SQLite's `LIKE` reads
    /// any value as text; PostgreSQL's `ILIKE` needs text, and its timestamps are searched as
    /// the ISO 8601 text SQLite stores.
    func searchable(_ column: String, field: ExportField) -> String {
        self == .sqlite || field.type == .text ? column : storedText(column, field: field)
    }

    /// `column` as the text the SQLite store holds for `field` (PostgreSQL only).
    private func storedText(_ column: String, field: ExportField) -> String {
        switch field.type {
        case .timestamp: field.isMeta ? PostgresSQL.isoText(column) : PostgresSQL.recordTimeText(column)
        default: column + "::text"
        }
    }

    /// `sql` with its `?` parameters numbered for PostgreSQL (`$1`, `$2`...). Names in the SQL
    /// are quoted identifiers from the schemas and literals are Feedwork's own, so a `?` is
    /// always a parameter.
    func numbered(_ sql: String) -> String {
        guard self == .postgres else { return sql }
        var result = ""
        var index = 0
        for character in sql {
            if character == "?" {
                index += 1
                result += "$\(index)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
