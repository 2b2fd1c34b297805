import FeedKit
import FeedStore

/// SQLite's SQL where the stores differ (``SQLDialect``).
struct SQLiteDialect: SQLDialect {
    /// `LIKE` ignores ASCII case.
    var like: String { "LIKE" }

    var distinct: String { "IS NOT" }

    var never: String { "0" }

    /// SQLite's limit since 3.32 (Debian 12 has 3.40), which a connection reports as
    /// `sqlite3_limit(_, SQLITE_LIMIT_VARIABLE_NUMBER, -1)`.
    var parameterLimit: Int { 32_766 }

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

    var readOnlySQLFlavor: ReadOnlySQLStatement.Flavor { .sqlite }

    var caseRule: String { "SQLite table names ignore case" }

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

/// The full-text index on SQLite (``SearchIndex``): an FTS5 external-content table over the
/// entity's table, and three triggers that keep it as the table's rows are inserted, updated
/// and deleted, whichever statement does it.
extension SQLiteDialect {
    /// The FTS5 table first, with the words as its argument, then the entity's rows by rowid:
    /// the index finds the matches, the table is read for them alone. FTS5's `rank` (BM25) is
    /// lower for a better match.
    func search(_ schema: EntitySchema, for query: SearchQuery) -> SearchSQL {
        SearchSQL(
            from:
                "\(SQLIdentifier.quoted(SearchIndex.name(schema.name)))(?) AS s CROSS JOIN \(SQLIdentifier.quoted(schema.name)) AS t",
            argument: .text(query.ftsMatch), condition: "t.rowid = s.rowid", rank: "(-s.rank)")
    }

    /// The table and its triggers, as `sqlite_master` then holds them, then the rebuild that
    /// indexes the rows already there.
    func searchIndex(_ schema: EntitySchema) -> SearchIndexStatements {
        guard !schema.search.isEmpty else { return SearchIndexStatements(records: [:], statements: []) }
        let index = SearchIndex.name(schema.name)
        let fts = SQLIdentifier.quoted(index)
        let table = SQLIdentifier.quoted(schema.name)
        let columns = schema.search.map(SQLIdentifier.quoted)
        let names = columns.joined(separator: ", ")
        let new = columns.map { "new." + $0 }.joined(separator: ", ")
        let old = columns.map { "old." + $0 }.joined(separator: ", ")
        let remove = "INSERT INTO \(fts)(\(fts), rowid, \(names)) VALUES ('delete', old.rowid, \(old));"
        let add = "INSERT INTO \(fts)(rowid, \(names)) VALUES (new.rowid, \(new));"
        // Accents are kept (remove_diacritics 0), as PostgreSQL's `simple` keeps them.
        let objects = [
            (
                index,
                "CREATE VIRTUAL TABLE \(fts) USING fts5(\(names), content=\(table), "
                    + "content_rowid='rowid', tokenize='unicode61 remove_diacritics 0')"
            ),
            (
                index + "_insert",
                "CREATE TRIGGER \(SQLIdentifier.quoted(index + "_insert")) AFTER INSERT ON \(table) BEGIN \(add) END"
            ),
            (
                index + "_delete",
                "CREATE TRIGGER \(SQLIdentifier.quoted(index + "_delete")) AFTER DELETE ON \(table) BEGIN \(remove) END"
            ),
            (
                index + "_update",
                "CREATE TRIGGER \(SQLIdentifier.quoted(index + "_update")) AFTER UPDATE OF \(names) ON \(table) "
                    + "BEGIN \(remove) \(add) END"
            ),
        ]
        return SearchIndexStatements(
            records: Dictionary(objects, uniquingKeysWith: { first, _ in first }),
            statements: objects.map(\.1) + ["INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')"])
    }

    var searchIndexRecordSQL: String {
        "SELECT name, sql FROM sqlite_master WHERE name IN (?1, ?1 || '_insert', ?1 || '_delete', ?1 || '_update')"
    }

    /// The triggers, then the table.
    func dropSearchIndex(of entity: String) -> [String] {
        let index = SearchIndex.name(entity)
        return ["_insert", "_delete", "_update"].map { "DROP TRIGGER IF EXISTS \(SQLIdentifier.quoted(index + $0))" }
            + ["DROP TABLE IF EXISTS \(SQLIdentifier.quoted(index))"]
    }
}
