import FeedKit
import FeedStore
import GRDB

/// The primary key of entity tables: `(_feed, _key)`, so that SQL tools (Datasette, DB
/// browsers) see how rows are identified, and the store refuses two rows for one key.
///
/// An entity a feed writes in `append` mode keeps one row per version of a record, so its
/// keys repeat and its table has no primary key (the `_feed_key` index serves lookups). Which
/// entities keep history is recorded in `_entities.history`, so a table is rebuilt at most once
/// each way: with the key when an older store's table has none (and no key repeats), without it
/// the first time a feed appends to the entity.
extension SQLiteEntityTable {
    static let primaryKey = #"PRIMARY KEY ("_feed", "_key")"#

    /// Whether `table`'s primary key is `(_feed, _key)`.
    static func isKeyed(_ table: String, in db: Database) throws -> Bool {
        try primaryKey(of: table, in: db) == ["_feed", "_key"]
    }

    /// The columns of `table`'s primary key, in key order; none for a rowid table without one.
    static func primaryKey(of table: String, in db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))")
            .filter { ($0["pk"] as Int) > 0 }
            .sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
            .map { $0["name"] as String }
    }

    /// Gives `table` the primary key, or takes it away, rebuilding the table when it differs
    /// (its foreign keys kept). A table whose rows repeat a key keeps none.
    ///
    /// - Returns: whether the table has the primary key now.
    static func setKey(_ keyed: Bool, on table: String, in db: Database, path: String) throws -> Bool {
        let isKeyed = try isKeyed(table, in: db)
        guard keyed != isKeyed else { return isKeyed }
        if keyed {
            let repeated = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoted(table)) GROUP BY _feed, _key HAVING count(*) > 1)")
            if repeated == true { return false }
        }
        try rebuild(table, keyed: keyed, foreignKeys: try foreignKeys(of: table, in: db), in: db, path: path)
        return keyed
    }

    /// SQLite cannot add or drop a primary key or a foreign key: a new table is made with every
    /// column of the old one (in order, with its type and NOT NULL), the key and `foreignKeys`,
    /// the rows are copied with their rowids, and it takes the old one's name. Views that read
    /// the table keep working; its indexes go with the old table, so the caller makes them again.
    ///
    /// - Throws: ``StoreError`` when another table's foreign key points at `table`: dropping
    ///   it would count each row pointing at it as pointing at nothing, and the commit would fail.
    static func rebuild(
        _ table: String, keyed: Bool, foreignKeys: [FeedStore.ForeignKey], in db: Database, path: String
    ) throws {
        try rebuild(
            table, constraints: (keyed ? [primaryKey] : []) + foreignKeys.map(clause), withoutRowid: false,
            copyingRowids: true, in: db, path: path)
    }

    /// Rebuilds `table` as above with `constraints` after its columns, as a `WITHOUT ROWID`
    /// table or not; its rows keep their rowids when `copyingRowids` (both tables have them).
    /// The columns named in `converting` take its type, their values its expression (of the
    /// old table's columns).
    static func rebuild(
        _ table: String, constraints: [String], withoutRowid: Bool, copyingRowids: Bool,
        converting: [String: (type: String, expression: String)] = [:], in db: Database, path: String
    ) throws {
        if let other = try tablesPointing(at: table, in: db).first {
            throw StoreError(
                path: path,
                message:
                    "table '\(table)' must be rebuilt to change its keys or a column's type, but the foreign key of '\(other)' points at it; nothing was changed"
            )
        }
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))").map { row in
            let name: String = row["name"]
            return (
                name: name,
                definition: "\(quoted(name)) \(converting[name]?.type ?? row["type"] as String)"
                    + ((row["notnull"] as Int) != 0 ? " NOT NULL" : "")
            )
        }
        let names = columns.map { quoted($0.name) }.joined(separator: ", ")
        let values = columns.map { converting[$0.name]?.expression ?? quoted($0.name) }.joined(separator: ", ")
        let temporary = quoted(table + "__rekeyed")
        let definitions = columns.map(\.definition) + constraints
        let rowid = copyingRowids ? "rowid, " : ""
        // Without it, renaming checks every view, and a view of the dropped table would fail it.
        try db.execute(sql: "PRAGMA legacy_alter_table = ON")
        defer { try? db.execute(sql: "PRAGMA legacy_alter_table = OFF") }
        try db.execute(
            sql: """
                CREATE TABLE \(temporary) (\(definitions.joined(separator: ", ")))\(withoutRowid ? " WITHOUT ROWID" : "");
                INSERT INTO \(temporary) (\(rowid)\(names)) SELECT \(rowid)\(values) FROM \(quoted(table));
                DROP TABLE \(quoted(table));
                ALTER TABLE \(temporary) RENAME TO \(quoted(table));
                """)
    }
}
