import FeedKit
import FeedStore
import Foundation

/// PostgreSQL's SQL where the stores differ (``SQLDialect``): values are read back as the
/// SQLite store holds them, so an export is the same from either store.
struct PostgresDialect: SQLDialect {
    /// `ILIKE` ignores case.
    var like: String { "ILIKE" }
    /// Quoted text, which takes its column's type.
    var inlinesValuesAsText: Bool { true }

    var distinct: String { "IS DISTINCT FROM" }

    var never: String { "false" }

    /// `_row` (``commonColumns``), PostgreSQL's stand-in for a rowid.
    var tiebreak: String { "t._row" }

    /// `numeric` compares exactly as it is.
    func number(_ column: String) -> String { column }

    /// An exact `numeric` of that scale: `249 * 0.01` is `2.49`.
    func amount(_ column: String, digits: Int) -> String {
        digits == 0 ? "\(column)::numeric" : "\(column) * 0.\(String(repeating: "0", count: digits - 1))1"
    }

    func textLiteral(_ text: String) -> String { "'\(text)'::text" }

    /// `->>` gives text, which ``PostgresValue/field(_:type:)`` types again, except that a
    /// boolean key (1 or 0 in the array, as SQLite's `json_array` writes it) is cast to
    /// `boolean`, and a timestamp key (ISO 8601 with milliseconds in the array) is normalized
    /// as the row's own column is exported (``PostgresSQL/recordTimeText(_:)``).
    func keyValue(at index: Int, of field: ExportField) -> String {
        let text = "(d.key_values ->> \(index))"
        switch field.type {
        case .boolean: return "\(text)::int::boolean"
        case .timestamp: return PostgresSQL.recordTimeText("\(text)::timestamptz")
        case .integer, .real, .decimal, .text, .date, .json: return text
        }
    }

    /// Timestamps and JSON as the text SQLite stores (records' times normalized, the store's
    /// own with milliseconds).
    func select(_ field: ExportField) -> String {
        let column = "t." + SQLIdentifier.quoted(field.name)
        guard [.timestamp, .json].contains(field.type) else { return column }
        return storedText(column, field: field) + " AS " + SQLIdentifier.quoted(field.name)
    }

    /// `ILIKE` needs text, and timestamps are searched as the ISO 8601 text SQLite stores.
    func searchable(_ column: String, field: ExportField) -> String {
        field.type == .text ? column : storedText(column, field: field)
    }

    /// `$1`, `$2`... Names in the SQL are quoted identifiers from the schemas and literals are
    /// Feedwork's own, so a `?` is always a parameter.
    func timestampText(_ column: String) -> String { PostgresSQL.isoText(column) }

    /// The protocol counts a statement's parameters in 16 bits.
    var parameterLimit: Int { 65_535 }

    func numbered(_ sql: String) -> String {
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

    /// `column` as the text the SQLite store holds for `field`.
    private func storedText(_ column: String, field: ExportField) -> String {
        switch field.type {
        case .timestamp: field.isMeta ? PostgresSQL.isoText(column) : PostgresSQL.recordTimeText(column)
        default: column + "::text"
        }
    }

    /// A cast to the column's type; a boolean becomes a `bigint` through `integer`, the only
    /// integer PostgreSQL casts it to.
    func converted(_ column: String, from: ColumnType, to: ColumnType) -> String {
        from == .boolean && to == .integer
            ? "\(column)::integer::bigint" : "\(column)::\(Self.sqlType(to))"
    }

    /// PostgreSQL's quoted names keep their case, but an SQLite store could not hold both, and
    /// every store holds the same entities.
    var readOnlySQLFlavor: ReadOnlySQLStatement.Flavor { .postgres }

    var caseRule: String { "every store refuses such names (SQLite's table names ignore case)" }

    var jsonArrayTexts: String { "SELECT jsonb_array_elements_text(CAST(? AS jsonb))" }

    func jsonRecords(_ columns: [(name: String, kind: SystemColumn.Kind)], as alias: String) -> String {
        let declared = columns.map { "\($0.name) \(systemType($0.kind))" }
        return "jsonb_to_recordset(CAST(? AS jsonb)) AS \(alias)(\(declared.joined(separator: ", ")))"
    }

    /// `least` and `greatest` ignore nulls.
    func least(_ first: String, _ second: String) -> String { "least(\(first), \(second))" }

    func greatest(_ first: String, _ second: String) -> String { "greatest(\(first), \(second))" }

    var tableExists: String { "SELECT 1 WHERE to_regclass(quote_ident(?)) IS NOT NULL" }

    /// Each key column cast to what SQLite's `json_array` gives: booleans as 1 or 0, decimals,
    /// dates and JSON as their text (a JSON column's as PostgreSQL normalizes it), timestamps as
    /// ISO 8601 UTC with milliseconds.
    func tombstoneKeyValues(_ schema: EntitySchema) -> String {
        let values = schema.key.map { name -> String in
            let column = PostgresSQL.identifier(name)
            switch schema.columns.first(where: { $0.name == name })?.type {
            case .boolean: return "\(column)::int"
            case .decimal, .date, .json: return "\(column)::text"
            case .timestamp: return PostgresSQL.isoText(column)
            case .integer, .real, .text, nil: return column
            }
        }
        return "jsonb_build_array(\(values.joined(separator: ", ")))"
    }

    /// The comment of what holds the name in the store's schema: PostgreSQL keeps no view's text
    /// as it was written, so a view Feedwork wrote carries a comment (`COMMENT ON VIEW`) that
    /// begins with ``viewMark`` and ends with the view's query.
    var viewRecordSQL: String {
        """
        SELECT CASE WHEN c.relkind = 'v' THEN 1 ELSE 0 END, obj_description(c.oid, 'pg_class') FROM pg_class AS c
        WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace
        """
    }

    var viewMark: String {
        "Written by Feedwork at the start of each pass; a view of this name without this comment is left alone. Query: "
    }

    /// The view, then its comment. Unqualified, the name is the store's schema's: it is first on
    /// the connection's search path, and no entity's view can take a name of PostgreSQL's
    /// catalog, which is searched before it (``PostgresNames``: no entity begins with `pg_`).
    func createView(_ name: String, as select: String) -> (record: String, statements: [String]) {
        let comment = viewMark + select
        let view = SQLIdentifier.quoted(name)
        return (
            comment,
            ["CREATE VIEW \(view) AS \(select)", "COMMENT ON VIEW \(view) IS \(PostgresSQL.literal(comment))"]
        )
    }

    /// `clock_timestamp()`: `now()` is the time the transaction started.
    var clock: String { "clock_timestamp()" }

    var skipLocked: String { "FOR UPDATE SKIP LOCKED" }
}

/// How the PostgreSQL store declares its system tables (``SystemTables``), with the types a SQL
/// user expects: times are `timestamptz`, counts `bigint`, bodies `bytea`, JSON `jsonb`.
extension PostgresDialect {
    func systemType(_ kind: SystemColumn.Kind) -> String {
        switch kind {
        case .serial, .integer: "bigint"
        case .text: "text"
        case .boolean: "boolean"
        case .time: "timestamptz"
        case .json: "jsonb"
        case .bytes: "bytea"
        }
    }

    var serialPrimaryKey: String { "bigserial PRIMARY KEY" }

    func zero(_ kind: SystemColumn.Kind) -> String { kind == .boolean ? "false" : "0" }
}

/// The full-text index on PostgreSQL (``SearchIndex``): a GIN index on
/// ``searchDocument(_:table:)``, the `simple` `tsvector` of the columns. An expression index
/// rather than a column, so the entity's table has the same columns as on SQLite; queries
/// repeat the expression, which PostgreSQL then reads from the index. The index carries a
/// comment naming its columns, by which a pass knows it is as the schema declares it.
extension PostgresDialect {
    /// The `tsvector` of `schema`'s search columns of the table aliased `table` (none: bare
    /// names), exactly as the index is written.
    func searchDocument(_ schema: EntitySchema, table: String? = nil) -> String {
        let prefix = table.map { $0 + "." } ?? ""
        let text = schema.search.map { "coalesce(\(prefix)\(PostgresSQL.identifier($0)), '')" }
            .joined(separator: " || ' ' || ")
        return "to_tsvector('simple'::regconfig, \(text))"
    }

    /// The indexed expression matched against the words (all of them), ranked by `ts_rank` as
    /// a `float8`, whose text reads back as the same number in a page's cursor.
    func search(_ schema: EntitySchema, for query: SearchQuery) -> SearchSQL {
        let document = searchDocument(schema, table: "t")
        return SearchSQL(
            from:
                "\(SQLIdentifier.quoted(schema.name)) AS t CROSS JOIN plainto_tsquery('simple'::regconfig, ?) AS s(query)",
            argument: .text(query.plainText), condition: "\(document) @@ s.query",
            rank: "ts_rank(\(document), s.query)::float8")
    }

    /// The index (which indexes the table's rows as it is made), then its comment. Unqualified,
    /// its name is the store's schema's: no name of PostgreSQL's catalog begins with `_`.
    func searchIndex(_ schema: EntitySchema) -> SearchIndexStatements {
        guard !schema.search.isEmpty else { return SearchIndexStatements(records: [:], statements: []) }
        let name = SearchIndex.name(schema.name)
        let comment = "feedwork search: " + schema.search.joined(separator: ", ")
        let index = SQLIdentifier.quoted(name)
        return SearchIndexStatements(
            records: [name: comment],
            statements: [
                "CREATE INDEX \(index) ON \(SQLIdentifier.quoted(schema.name)) USING gin (\(searchDocument(schema)))",
                "COMMENT ON INDEX \(index) IS \(PostgresSQL.literal(comment))",
            ])
    }

    var searchIndexRecordSQL: String {
        """
        SELECT c.relname::text, coalesce(obj_description(c.oid, 'pg_class'), '') FROM pg_class AS c
        WHERE c.relname = ? AND c.relkind = 'i' AND c.relnamespace = current_schema()::regnamespace
        """
    }

    func dropSearchIndex(of entity: String) -> [String] {
        ["DROP INDEX IF EXISTS \(SQLIdentifier.quoted(SearchIndex.name(entity)))"]
    }
}
