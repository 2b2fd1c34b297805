import FeedEngine
import FeedKit
import FeedTestSupport

extension FeedHarness {
    /// The foreign keys of `table` as SQL tools see them, one line each:
    /// `(_feed, category_id) -> category (_feed, _key) deferred` (SQLite's `pragma_foreign_key_list`
    /// and the table's SQL, PostgreSQL's `pg_constraint`).
    func foreignKeys(of table: String) async throws -> [String] {
        let sql =
            switch storeKind {
            case .sqlite:
                """
                SELECT "table" AS parent, group_concat("from", ', ') AS columns, group_concat("to", ', ') AS parent_columns,
                    (SELECT sql LIKE '%DEFERRABLE INITIALLY DEFERRED%' FROM sqlite_master WHERE name = $1) AS deferred
                FROM (SELECT * FROM pragma_foreign_key_list($1) ORDER BY id, seq) GROUP BY id ORDER BY id
                """
            case .postgres:
                """
                SELECT p.relname::text AS parent,
                    (SELECT string_agg(a.attname::text, ', ' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                        JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
                    (SELECT string_agg(a.attname::text, ', ' ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
                        JOIN pg_attribute AS a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS parent_columns,
                    c.condeferred AS deferred
                FROM pg_constraint AS c JOIN pg_class AS p ON p.oid = c.confrelid
                WHERE c.conrelid = to_regclass($1) AND c.contype = 'f' ORDER BY c.conname
                """
            }
        return try await rows(sql, [.text(table)]).map { row in
            let text = { (name: String) -> String in if case .text(let value)? = row[name] { value } else { "?" } }
            let deferred = row["deferred"] == .integer(1) ? " deferred" : ""
            return "(\(text("columns"))) -> \(text("parent")) (\(text("parent_columns")))\(deferred)"
        }
    }

    /// The rows of `table` with their rowids (`_row` on PostgreSQL), feed, key and `columns`,
    /// in rowid order: what a rebuilt table must keep.
    func rowsWithRowids(_ table: String, columns: String) async throws -> [[String: FieldValue]] {
        let rowid = storeKind == .sqlite ? "rowid" : "_row"
        return try await rows("SELECT \(rowid) AS rowid, _feed, _key, \(columns) FROM \"\(table)\" ORDER BY \(rowid)")
    }
}
