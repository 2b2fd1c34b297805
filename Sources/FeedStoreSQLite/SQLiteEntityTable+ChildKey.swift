import FeedKit
import FeedStore
import GRDB

/// The key of child tables (`<entity>__<list>`): `(_feed, _key, _position)`, in a `WITHOUT
/// ROWID` table, so the rows live in the key's one B-tree. A rowid table with an index on
/// `(_feed, _key)` is two B-trees, and each child row was two inserts: SQLite inserting W1's
/// 1,000,000 items and their 2,000,000 tags took 4.16 s with the tags keyed this way against
/// 4.56 s as a rowid table with its index (`Benchmarks/floor-layouts.sh`, medians of 3; 0.42 s
/// against 0.45 s at 100,000). The items themselves stay a rowid table: keyed by
/// `(_feed, _key)` without a rowid they took 4.22 s, as their rows are wide.
///
/// The child rows of an entity that keeps history repeat `(_feed, _key, _position)`, one set a
/// version, so its child tables stay rowid tables with the `_parent` index; a table is rebuilt
/// when this changes, like its entity's table (``setKey(_:on:in:path:)``).
extension SQLiteEntityTable {
    static let childPrimaryKey = #"PRIMARY KEY ("_feed", "_key", "_position")"#

    /// Whether the child table `table` is keyed by `(_feed, _key, _position)`.
    static func isChildKeyed(_ table: String, in db: Database) throws -> Bool {
        try primaryKey(of: table, in: db) == ["_feed", "_key", "_position"]
    }

    /// Keys the child table `table` (rebuilt without its rowids), or gives it its rowids back,
    /// when it differs. A table whose rows repeat a key stays a rowid table.
    ///
    /// - Returns: whether the table is keyed now.
    static func setChildKey(_ keyed: Bool, on table: String, in db: Database, path: String) throws -> Bool {
        let isKeyed = try isChildKeyed(table, in: db)
        guard keyed != isKeyed else { return isKeyed }
        if keyed {
            let repeated = try Bool.fetchOne(
                db,
                sql:
                    "SELECT EXISTS (SELECT 1 FROM \(quoted(table)) GROUP BY _feed, _key, _position HAVING count(*) > 1)"
            )
            if repeated == true { return false }
        }
        // One of the two tables has no rowids, so the rows take new ones (or none).
        try rebuild(
            table, constraints: keyed ? [childPrimaryKey] : [], withoutRowid: keyed, copyingRowids: false, in: db,
            path: path)
        return keyed
    }

    /// A keyed child table finds a record's rows by its primary key; a rowid one by this index.
    static func setParentIndex(on table: String, keyed: Bool, in db: Database) throws {
        try setFeedKeyIndex(table + "_parent", on: table, present: !keyed, in: db)
    }
}
