import FeedKit
import GRDB

/// The primary key of entity tables: `(_feed, _key)`, so that SQL tools (Datasette, DB
/// browsers) see how rows are identified, and the store refuses two rows for one key.
///
/// An entity a feed writes in `append` mode keeps one row per version of a record, so its
/// keys repeat and its table has no primary key (the `_feed_key` index serves lookups). Which
/// entities keep history is recorded in `_entities.history`, so a table is rebuilt at most once
/// each way: with the key when an older store's table has none (and no key repeats), without it
/// the first time a feed appends to the entity.
extension EntityTable {
    static let primaryKey = #"PRIMARY KEY ("_feed", "_key")"#

    /// Whether `table`'s primary key is `(_feed, _key)`.
    static func isKeyed(_ table: String, in db: Database) throws -> Bool {
        let keyColumns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))")
            .filter { ($0["pk"] as Int) > 0 }
            .sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
            .map { $0["name"] as String }
        return keyColumns == ["_feed", "_key"]
    }

    /// Gives `table` the primary key, or takes it away, rebuilding the table when it differs.
    /// A table whose rows repeat a key keeps none.
    ///
    /// - Returns: whether the table has the primary key now.
    static func setKey(_ keyed: Bool, on table: String, in db: Database) throws -> Bool {
        let isKeyed = try isKeyed(table, in: db)
        guard keyed != isKeyed else { return isKeyed }
        if keyed {
            let repeated = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoted(table)) GROUP BY _feed, _key HAVING count(*) > 1)")
            if repeated == true { return false }
        }
        try rebuild(table, keyed: keyed, in: db)
        return keyed
    }

    /// SQLite cannot add or drop a primary key: a new table is made with every column of the old
    /// one (in order, with its type and NOT NULL), the rows are copied with their rowids, and it
    /// takes the old one's name. Views that read the table keep working.
    private static func rebuild(_ table: String, keyed: Bool, in db: Database) throws {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))").map { row in
            (
                name: row["name"] as String,
                definition: "\(quoted(row["name"])) \(row["type"] as String)"
                    + ((row["notnull"] as Int) != 0 ? " NOT NULL" : "")
            )
        }
        let names = columns.map { quoted($0.name) }.joined(separator: ", ")
        let temporary = quoted(table + "__rekeyed")
        let definitions = columns.map(\.definition) + (keyed ? [primaryKey] : [])
        // Without it, renaming checks every view, and a view of the dropped table would fail it.
        try db.execute(sql: "PRAGMA legacy_alter_table = ON")
        defer { try? db.execute(sql: "PRAGMA legacy_alter_table = OFF") }
        try db.execute(
            sql: """
                CREATE TABLE \(temporary) (\(definitions.joined(separator: ", ")));
                INSERT INTO \(temporary) (rowid, \(names)) SELECT rowid, \(names) FROM \(quoted(table));
                DROP TABLE \(quoted(table));
                ALTER TABLE \(temporary) RENAME TO \(quoted(table));
                """)
    }
}
