import FeedKit
import FeedStore
import GRDB

/// Deletions the adapter asks for (``FeedPass/delete(entity:keys:)``), such as a changes
/// feed's soft-deleted records.
extension SQLiteEntityWriter {
    /// Deletes the feed's rows with these keys and their child rows, leaving a tombstone in
    /// `_tombstones` for each row, as ``deleteUnseen(in:)`` does; keys the table does not hold
    /// are left alone.
    func delete(_ keys: [String], in db: Database) throws {
        // Records held for a multi-row insert go in first, so a key written earlier is found.
        try flush(in: db)
        let table = SQLIdentifier.quoted(schema.name)
        let keyValues = "json_array(" + schema.key.map(SQLIdentifier.quoted).joined(separator: ", ") + ")"
        let tombstone = try db.cachedStatement(
            sql: """
                INSERT INTO _tombstones(feed, entity, key, key_values, run, deleted_at)
                SELECT _feed, ?, _key, \(keyValues), ?, ? FROM \(table) WHERE _feed = ? AND _key = ?
                """)
        let delete = try db.cachedStatement(sql: "DELETE FROM \(table) WHERE _feed = ? AND _key = ?")
        let children = try schema.children.map { child in
            try db.cachedStatement(
                sql: "DELETE FROM \(SQLIdentifier.quoted(schema.childTableName(child))) WHERE _feed = ? AND _key = ?")
        }
        for key in keys {
            try tombstone.execute(arguments: [schema.name, run, stamp, feed, key])
            try delete.execute(arguments: [feed, key])
            let deleted = db.changesCount
            guard deleted > 0 else { continue }
            countDeleted(deleted)
            for child in children { try child.execute(arguments: [feed, key]) }
        }
    }
}
