import FeedKit

/// Deleting a feed's rows of an entity with their child rows, leaving a tombstone in
/// `_tombstones` for each (for `export --include-deleted`): the rows an adapter deletes by key
/// (``FeedPass/delete(entity:keys:)``) and those a `replace` pass did not deliver. Written once
/// for every driver, on the pass's connection, once the entity's writer sent every row it held
/// (``EntityWriting/sendAll()``).
package enum EntityDeletion {
    /// Which of the feed's rows go.
    package enum Rows {
        /// Those with these keys; keys the table does not hold are left alone.
        case keys([String])
        /// Those the pass stamped `stamp` did not deliver (a `replace` pass's).
        case undelivered
    }

    /// Deletes `rows` of `feed` in the tables of `schema`; the pass is run `run`, stamped
    /// `stamp`.
    ///
    /// A tombstone's `key_values` is a JSON array of the key columns' values as SQLite's
    /// `json_array` gives them (``SQLDialect/tombstoneKeyValues(_:)``).
    ///
    /// - Returns: the number of the entity's rows deleted.
    /// - Throws: ``StoreError`` naming the entity when a statement fails.
    package static func delete(
        _ rows: Rows, of schema: EntitySchema, feed: String, run: Int64, stamp: String,
        on connection: any SQLConnection
    ) throws -> Int {
        let dialect = connection.dialect
        let table = SQLIdentifier.quoted(schema.name)
        let (condition, arguments): (String, [SQLValue]) =
            switch rows {
            case .keys(let keys): ("_key IN (\(dialect.jsonArrayTexts))", [.text(keys.jsonArrayText)])
            case .undelivered: ("_last_seen <> CAST(? AS \(dialect.systemType(.time)))", [.text(stamp)])
            }
        let selected = "FROM \(table) WHERE _feed = ? AND \(condition)"
        do {
            _ = try connection.execute(
                """
                INSERT INTO _tombstones(feed, entity, key, key_values, run, deleted_at)
                SELECT _feed, CAST(? AS \(dialect.systemType(.text))), _key, \(dialect.tombstoneKeyValues(schema)),
                    CAST(? AS \(dialect.systemType(.integer))), CAST(? AS \(dialect.systemType(.time))) \(selected)
                """, [.text(schema.name), .integer(run), .text(stamp), .text(feed)] + arguments)
            for child in schema.children {
                _ = try connection.execute(
                    """
                    DELETE FROM \(SQLIdentifier.quoted(schema.childTableName(child)))
                    WHERE _feed = ? AND _key IN (SELECT _key \(selected))
                    """, [.text(feed), .text(feed)] + arguments)
            }
            return try connection.execute("DELETE \(selected)", [.text(feed)] + arguments)
        } catch {
            let what = if case .keys = rows { "cannot delete the rows" } else { "cannot delete the undelivered rows" }
            throw StoreError(
                path: connection.location, message: "entity '\(schema.name)' (table \(table)): \(what): \(error)")
        }
    }
}
