import FeedKit
import FeedStore

/// Deletions on PostgreSQL: a complete `replace` pass deletes the feed's rows it did not
/// deliver, and an adapter deletes rows by key (``FeedPass/delete(entity:keys:)``); both leave
/// tombstones.
extension PostgresEntityWriter {
    /// Ends the pass's writes, in every mode: sends the new records still held (`+Direct`),
    /// then, for `replace`, deletes the feed's rows that this pass did not deliver, with their
    /// child rows, leaving a tombstone in `_tombstones` for each (for
    /// `export --include-deleted`), in one statement. Call it before the transaction commits.
    ///
    /// A tombstone's `key_values` is a JSON array of the key columns' values as SQLite's
    /// `json_array` gives them: numbers for integer and real columns, 1 or 0 for booleans, and
    /// strings for the rest (a decimal's stored digits, a timestamp as ISO 8601 UTC with
    /// milliseconds, a date as `YYYY-MM-DD`, a JSON column's text as PostgreSQL normalizes it).
    func deleteUnseen(in connection: PostgresConnection) throws(PostgresEntityError) {
        try sendDirect(connection)
        guard mode == .replace else { return }
        let deleted = try execute(
            deletion(of: "_last_seen <> $4::timestamptz"), [feed, schema.name, String(run), stamp], on: sql.table,
            "cannot delete the undelivered rows", connection)
        counts.deleted += Int(deleted[0, 0] ?? "") ?? 0
        undelivered += Int(deleted[0, 0] ?? "") ?? 0
    }

    /// Deletes the feed's rows with these keys and their child rows, leaving a tombstone for
    /// each (``FeedPass/delete(entity:keys:)``); keys the table does not hold are left alone.
    func delete(_ keys: [String], in connection: PostgresConnection) throws(PostgresEntityError) {
        // Records held for COPY go in first, so a key written earlier in the pass is found.
        try sendDirect(connection)
        let deleted = try execute(
            deletion(of: "_key = ANY ($5::text[])"),
            [feed, schema.name, String(run), stamp, PostgresSQL.arrayLiteral(keys)], on: sql.table,
            "cannot delete the rows",
            connection)
        counts.deleted += Int(deleted[0, 0] ?? "") ?? 0
    }

    /// One statement that deletes the feed `$1`'s rows meeting `condition`, with their child
    /// rows, and leaves a tombstone for each (entity `$2`, run `$3`, stamp `$4`); it returns
    /// the number of rows deleted.
    private func deletion(of condition: String) -> String {
        let keyValues = schema.key.map { name -> String in
            let column = PostgresSQL.identifier(name)
            switch schema.columns.first(where: { $0.name == name })?.type {
            case .boolean: return "\(column)::int"
            case .decimal, .date, .json: return "\(column)::text"
            case .timestamp: return PostgresSQL.isoText(column)
            case .integer, .real, .text, nil: return column
            }
        }
        let returned = (["_feed", "_key"] + schema.key.map(PostgresSQL.identifier)).joined(separator: ", ")
        let children = sql.children.enumerated().map { index, child in
            ", child\(index) AS (DELETE FROM \(child.table) AS c USING gone g WHERE c._feed = $1 AND c._key = g._key)"
        }
        return """
            WITH gone AS (
                DELETE FROM \(sql.table) WHERE _feed = $1 AND \(condition) RETURNING \(returned)
            ), tombstones AS (
                INSERT INTO _tombstones(feed, entity, key, key_values, run, deleted_at)
                SELECT _feed, $2, _key, jsonb_build_array(\(keyValues.joined(separator: ", "))), $3::bigint,
                    $4::timestamptz
                FROM gone
            )\(children.joined())
            SELECT count(*) FROM gone
            """
    }
}
