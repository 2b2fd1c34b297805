import FeedKit

extension SQLEntityWriter {
    /// The writer's statements, built once from the entity's schema; those of many rows or
    /// keys take how many.
    struct Statements {
        /// The feed's rows of some keys: `_key`, `_hash`, and 1 when this pass delivered the
        /// row already (its `_last_seen` is the pass's stamp). Stamp, feed, the keys.
        let lookup: (Int) -> String
        /// Every version of some keys: `_key`, `_hash`, and 1 for the version this run
        /// appended. Run, feed, the keys.
        let versions: (Int) -> String
        /// Moves `_last_seen` to the stamp on the rows of some keys. Stamp, feed, the keys.
        let touch: (Int) -> String
        /// Rewrites a merged row: hash, run, stamp, the schema's columns, then feed and key.
        let update: String
        /// Rewrites the version this run appended: as ``update``, then feed, key and run.
        let updateAppended: String
        /// Inserts rows: per row the common columns (``EntityColumns/common``), then the schema's.
        let insert: (Int) -> String
        /// Per child list, in schema order: deletes the rows of some keys (feed, the keys), and
        /// inserts rows (per row feed, key, position, then the list's columns).
        let deleteChildren: [(Int) -> String]
        let insertChildren: [(Int) -> String]

        init(_ schema: EntitySchema) {
            let quoted = SQLIdentifier.quoted
            let table = quoted(schema.name)
            let columns = schema.columns.map { quoted($0.name) }
            lookup = { keys in
                "SELECT _key, _hash, CASE WHEN _last_seen = ? THEN 1 ELSE 0 END FROM \(table) "
                    + "WHERE _feed = ? AND _key IN (\(SQLPlaceholders.list(keys)))"
            }
            versions = { keys in
                "SELECT _key, _hash, CASE WHEN _run = ? THEN 1 ELSE 0 END FROM \(table) "
                    + "WHERE _feed = ? AND _key IN (\(SQLPlaceholders.list(keys)))"
            }
            touch = { keys in
                "UPDATE \(table) SET _last_seen = ? WHERE _feed = ? AND _key IN (\(SQLPlaceholders.list(keys)))"
            }
            let assignments = (["_hash", "_run", "_last_seen"] + columns).map { "\($0) = ?" }.joined(separator: ", ")
            update = "UPDATE \(table) SET \(assignments) WHERE _feed = ? AND _key = ?"
            updateAppended = update + " AND _run = ?"
            insert = Self.insert(into: table, EntityColumns.common.map(quoted) + columns)
            deleteChildren = schema.children.map { child in
                let childTable = quoted(schema.childTableName(child))
                return { keys in
                    "DELETE FROM \(childTable) WHERE _feed = ? AND _key IN (\(SQLPlaceholders.list(keys)))"
                }
            }
            insertChildren = schema.children.map { child in
                Self.insert(
                    into: quoted(schema.childTableName(child)),
                    (EntityColumns.childCommon + child.columns.map(\.name)).map(quoted))
            }
        }

        private static func insert(into table: String, _ columns: [String]) -> (Int) -> String {
            let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            return { rows in head + SQLPlaceholders.rows(rows, width: columns.count) }
        }
    }
}
