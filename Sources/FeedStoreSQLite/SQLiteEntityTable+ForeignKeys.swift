import FeedKit
import FeedStore
import GRDB
import GRDBSQLite

/// Enforced relations as SQLite foreign keys (``ForeignKey``):
/// `FOREIGN KEY ("_feed", "category_id") REFERENCES "category" ("_feed", "_key") DEFERRABLE
/// INITIALLY DEFERRED`, so that `PRAGMA foreign_key_list(classified)` shows them to SQL tools.
///
/// The parent's primary key serves as the parent index; SQLite applies the parent column's
/// text affinity to the child's value, so the integer 4 matches the key `'4'`. The child gets
/// an index on `(_feed, <column>)`: without one, SQLite scans the whole child table for each
/// parent row a `replace` pass deletes (measured: 100 categories deleted under 200,000 ads took
/// 2.9 s without it and under 1 ms with it, for 0.2 s more on inserting the 200,000 ads).
/// GRDB turns `PRAGMA foreign_keys` on for each connection it opens, the writer's included.
extension SQLiteEntityTable {
    /// The table constraint declaring `key` in its child's table.
    static func clause(_ key: FeedStore.ForeignKey) -> String {
        "FOREIGN KEY (\"_feed\", \(quoted(key.column))) REFERENCES \(quoted(key.parent)) (\"_feed\", \"_key\") "
            + "DEFERRABLE INITIALLY DEFERRED"
    }

    /// The foreign keys `table` declares that have Feedwork's shape, in declaration order.
    static func foreignKeys(of table: String, in db: Database) throws -> [FeedStore.ForeignKey] {
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT id, seq, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq",
            arguments: [table])
        var keys: [FeedStore.ForeignKey] = []
        for group in Dictionary(grouping: rows, by: { $0["id"] as Int }).sorted(by: { $0.key > $1.key }) {
            let from = group.value.map { $0["from"] as String }
            let to = group.value.map { $0["to"] as String? }
            guard from.count == 2, from[0] == "_feed", to == ["_feed", "_key"] else { continue }
            keys.append(FeedStore.ForeignKey(entity: table, column: from[1], parent: group.value[0]["table"]))
        }
        return keys
    }

    /// The other tables whose foreign keys point at `table`.
    static func tablesPointing(at table: String, in db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT DISTINCT m.name FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
                WHERE m.type = 'table' AND f."table" = ? AND m.name <> ? ORDER BY m.name
                """, arguments: [table, table])
    }

    /// Gives `schema`'s table the foreign keys of its enforced relations (and drops those it no
    /// longer enforces), rebuilding it when they differ, and their `(_feed, <column>)` indexes.
    /// Call it once the parents' tables and schemas are in the store.
    ///
    /// - Throws: ``StoreError`` when a foreign key cannot be declared (see
    ///   ``ForeignKey/problem(child:parent:parentKeepsHistory:parentKeyed:)``), or a
    ///   ``ForeignKeyViolation`` when rows already in the table point at nothing.
    static func setForeignKeys(_ schema: EntitySchema, in db: Database, path: String) throws {
        let table = schema.name
        let wanted = FeedStore.ForeignKey.declared(by: schema)
        if !wanted.isEmpty {
            let schemas = try SQLiteSQLConnection(db: db, location: path).entitySchemas()
            for key in wanted {
                let history = try Bool.fetchOne(
                    db, sql: "SELECT history FROM _entities WHERE name = ?", arguments: [key.parent])
                let keyed = try db.tableExists(key.parent) && isKeyed(key.parent, in: db)
                if let problem = key.problem(
                    child: schema, parent: schemas[key.parent], parentKeepsHistory: history == true, parentKeyed: keyed)
                {
                    throw StoreError(path: path, message: key.declarationError(problem))
                }
            }
        }
        let existing = try foreignKeys(of: table, in: db)
        if Set(existing) != Set(wanted) {
            for key in wanted where !existing.contains(key) {
                if let violation = try key.firstDangling(on: SQLiteSQLConnection(db: db, location: path)) {
                    throw violation
                }
            }
            let keyed = try isKeyed(table, in: db)
            try rebuild(table, keyed: keyed, foreignKeys: wanted, in: db, path: path)
            try setLookupIndex(on: table, keyed: keyed, in: db)
        }
        for key in existing where !wanted.contains(key) {
            try db.execute(sql: "DROP INDEX IF EXISTS \(referenceIndex(key))")
        }
        for key in wanted {
            try db.execute(
                sql:
                    "CREATE INDEX IF NOT EXISTS \(referenceIndex(key)) ON \(quoted(table))(_feed, \(quoted(key.column)))"
            )
        }
    }

    /// The name of the index on the child's `(_feed, <column>)`.
    private static func referenceIndex(_ key: FeedStore.ForeignKey) -> String {
        quoted("\(key.entity)_\(key.column)_ref")
    }

    /// Whether a row written in the transaction under way points at nothing through a foreign
    /// key: SQLite counts the violations of deferred foreign keys as they happen, so asking
    /// costs nothing.
    static func foreignKeysBroken(in db: Database) -> Bool {
        var pending: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_DEFERRED_FKS, &pending, &highest, 0)
        return pending > 0
    }
}
