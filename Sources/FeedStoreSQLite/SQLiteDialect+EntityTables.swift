import FeedKit
import FeedStore

/// Entity tables on SQLite (``EntityTable``): created with their primary key and foreign keys,
/// and rebuilt to change either or a column's type, which SQLite cannot alter.
///
/// An entity's table is a rowid table keyed by `(_feed, _key)`, so that SQL tools (Datasette,
/// DB browsers) see how rows are identified, and the store refuses two rows for one key. A
/// child table (`<entity>__<list>`) is keyed by `(_feed, _key, _position)` `WITHOUT ROWID`, so
/// its rows live in the key's one B-tree: a rowid table with an index on `(_feed, _key)` is two
/// B-trees, and each child row was two inserts. SQLite inserting W1's 1,000,000 items and their
/// 2,000,000 tags took 4.16 s with the tags keyed this way against 4.56 s as a rowid table with
/// its index (`Benchmarks/floor-layouts.sh`, medians of 3; 0.42 s against 0.45 s at 100,000).
/// The items themselves stay a rowid table: keyed by `(_feed, _key)` without a rowid they took
/// 4.22 s, as their rows are wide.
///
/// An entity a feed writes in `append` mode keeps one row per version of a record, so its keys
/// repeat: its table and child tables have no primary key, and an index on `(_feed, _key)`
/// serves lookups (a child table's is `<table>_parent`).
///
/// Enforced relations are declared as `FOREIGN KEY ("_feed", "category_id") REFERENCES
/// "category" ("_feed", "_key") DEFERRABLE INITIALLY DEFERRED`, so that `PRAGMA
/// foreign_key_list(classified)` shows them to SQL tools. The parent's primary key serves as the
/// parent index; SQLite applies the parent column's text affinity to the child's value, so the
/// integer 4 matches the key `'4'`. GRDB turns `PRAGMA foreign_keys` on for each connection it
/// opens, the writer's included.
extension SQLiteDialect {
    func columnType(_ type: ColumnType) -> String { type.sqlType }

    var columnNamesIgnoreCase: Bool { true }

    var storedColumnsSQL: String { #"SELECT name, upper(type), "notnull", pk FROM pragma_table_info(?) ORDER BY cid"# }

    /// Keys from `(_feed, <column>)` to the parent's `(_feed, _key)`, numbered by SQLite in
    /// reverse order of declaration.
    var foreignKeysSQL: String {
        """
        SELECT a.id, a."table", b."from" FROM pragma_foreign_key_list(?1) AS a
        JOIN pragma_foreign_key_list(?1) AS b ON b.id = a.id AND b.seq = 1
        WHERE a.seq = 0 AND a."from" = '_feed' AND a."to" = '_feed' AND b."to" = '_key'
            AND NOT EXISTS (SELECT 1 FROM pragma_foreign_key_list(?1) AS c WHERE c.id = a.id AND c.seq > 1)
        ORDER BY a.id DESC
        """
    }

    var tablesPointingSQL: String? {
        """
        SELECT DISTINCT m.name FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
        WHERE m.type = 'table' AND f."table" = ?1 AND m.name <> ?1 ORDER BY m.name
        """
    }

    func lookupIndex(of table: String, child: Bool) -> String { table + (child ? "_parent" : "_feed_key") }

    func createTable(_ shape: EntityTableShape, columns: [Column], in namespace: String?) -> [String] {
        let common =
            shape.kind == .entity
            ? [
                #""_feed" TEXT NOT NULL"#, #""_key" TEXT NOT NULL"#, #""_hash" INTEGER NOT NULL"#,
                #""_run" INTEGER NOT NULL"#, #""_first_seen" TEXT NOT NULL"#, #""_last_seen" TEXT NOT NULL"#,
            ]
            : [#""_feed" TEXT NOT NULL"#, #""_key" TEXT NOT NULL"#, #""_position" INTEGER NOT NULL"#]
        let definitions = common + columns.map { "\(SQLIdentifier.quoted($0.name)) \($0.type.sqlType)" }
        return [
            "CREATE TABLE \(SQLIdentifier.quoted(shape.name)) (\((definitions + constraints(of: shape)).joined(separator: ", ")))"
                + (withoutRowid(shape) ? " WITHOUT ROWID" : "")
        ]
    }

    /// A rebuild: a new table is made with every column of the old one (in order, with its type
    /// and NOT NULL, a converted column's new type), the key and foreign keys of `shape`; the
    /// rows are copied (a converted column's values as its expression), with their rowids when
    /// both tables have them, and it takes the old one's name. Views that read the table keep
    /// working; its indexes and full-text triggers go with the old table
    /// (``EntityTable/change(_:to:place:names:on:)`` and ``SearchIndex`` make them again).
    func reshape(_ table: StoredTable, to shape: EntityTableShape, in namespace: String?) -> TableChange {
        let columns = table.columns.map { column in
            let type = shape.conversions[column.name].map { $0.type.sqlType } ?? column.type
            return "\(SQLIdentifier.quoted(column.name)) \(type)" + (column.notNull ? " NOT NULL" : "")
        }
        let names = table.columns.map { SQLIdentifier.quoted($0.name) }.joined(separator: ", ")
        let values = table.columns.map { shape.conversions[$0.name]?.expression ?? SQLIdentifier.quoted($0.name) }
            .joined(separator: ", ")
        let wasWithoutRowid = shape.kind == .child && table.primaryKey == shape.keyColumns
        let rowid = !wasWithoutRowid && !withoutRowid(shape) ? "rowid, " : ""
        let quoted = SQLIdentifier.quoted(table.name)
        let temporary = SQLIdentifier.quoted(table.name + "__rekeyed")
        return TableChange(
            [
                // Without it, renaming checks every view, and a view of the dropped table would fail it.
                "PRAGMA legacy_alter_table = ON",
                "CREATE TABLE \(temporary) (\((columns + constraints(of: shape)).joined(separator: ", ")))"
                    + (withoutRowid(shape) ? " WITHOUT ROWID" : ""),
                "INSERT INTO \(temporary) (\(rowid)\(names)) SELECT \(rowid)\(values) FROM \(quoted)",
                "DROP TABLE \(quoted)",
                "ALTER TABLE \(temporary) RENAME TO \(quoted)",
            ], cleanup: ["PRAGMA legacy_alter_table = OFF"])
    }

    /// The primary key when keyed, then an entity table's foreign keys.
    private func constraints(of shape: EntityTableShape) -> [String] {
        let key =
            shape.keyed ? ["PRIMARY KEY (\(shape.keyColumns.map(SQLIdentifier.quoted).joined(separator: ", ")))"] : []
        guard shape.kind == .entity else { return key }
        return key
            + shape.foreignKeys.map { foreignKey in
                "FOREIGN KEY (\"_feed\", \(SQLIdentifier.quoted(foreignKey.column))) REFERENCES "
                    + "\(SQLIdentifier.quoted(foreignKey.parent)) (\"_feed\", \"_key\") DEFERRABLE INITIALLY DEFERRED"
            }
    }

    /// A keyed child table.
    private func withoutRowid(_ shape: EntityTableShape) -> Bool { shape.kind == .child && shape.keyed }
}
