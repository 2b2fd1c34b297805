import FeedKit
import FeedStore
import GRDB

/// The SQL of an entity's table and its child tables, derived from its schema, with the common
/// columns of ``EntityColumns`` before the schema's own.
enum SQLiteEntityTable {
    static func quoted(_ name: String) -> String { SQLIdentifier.quoted(name) }

    /// Creates the entity's tables when missing and adds columns the schema gained since.
    ///
    /// A new table declares the foreign keys of the schema's enforced relations; an existing
    /// one gains them in ``setForeignKeys(_:in:path:)``, once every table of the pass is there.
    ///
    /// - Parameter keyed: whether the table's primary key is `(_feed, _key)`: true unless a feed
    ///   keeps the entity's history (`append`), whose rows repeat keys. An existing table is
    ///   rebuilt when this changes (``setKey(_:on:in:path:)``).
    /// - Throws: ``StoreError`` when an existing column's type differs from the schema's.
    static func ensure(_ schema: EntitySchema, keyed: Bool = true, in db: Database, path: String) throws {
        let table = schema.name
        try ensureTable(
            name: table, columns: schema.columns,
            common: """
                "_feed" TEXT NOT NULL, "_key" TEXT NOT NULL, "_hash" INTEGER NOT NULL, "_run" INTEGER NOT NULL,
                "_first_seen" TEXT NOT NULL, "_last_seen" TEXT NOT NULL
                """,
            constraints: (keyed ? [primaryKey] : []) + FeedStore.ForeignKey.declared(by: schema).map(clause),
            indexes: [], in: db,
            path: path)
        try setLookupIndex(on: table, keyed: try setKey(keyed, on: table, in: db, path: path), in: db)
        for child in schema.children {
            let table = schema.childTableName(child)
            try ensureTable(
                name: table, columns: child.columns,
                common: #""_feed" TEXT NOT NULL, "_key" TEXT NOT NULL, "_position" INTEGER NOT NULL"#,
                constraints: keyed ? [childPrimaryKey] : [], withoutRowid: keyed, indexes: [], in: db, path: path)
            try setParentIndex(on: table, keyed: try setChildKey(keyed, on: table, in: db, path: path), in: db)
        }
    }

    /// Every write looks rows up by feed and key, through the primary key or, for a table
    /// without one, this index. `_run` (for exports of increments) is not indexed; a scan is
    /// cheap next to a second index on every insert.
    static func setLookupIndex(on table: String, keyed: Bool, in db: Database) throws {
        try setFeedKeyIndex(table + "_feed_key", on: table, present: !keyed, in: db)
    }

    /// Creates the index `name` on `table`'s `(_feed, _key)` when `present`, else drops it.
    static func setFeedKeyIndex(_ name: String, on table: String, present: Bool, in db: Database) throws {
        try db.execute(
            sql: present
                ? "CREATE INDEX IF NOT EXISTS \(quoted(name)) ON \(quoted(table))(_feed, _key)"
                : "DROP INDEX IF EXISTS \(quoted(name))")
    }

    private static func ensureTable(
        name: String, columns: [FeedKit.Column], common: String, constraints: [String] = [], withoutRowid: Bool = false,
        indexes: [String], in db: Database, path: String
    ) throws {
        if try db.tableExists(name) {
            let existing = try db.columns(in: name)
            // By lowercased name: SQLite column names ignore case.
            let stored = Dictionary(
                existing.map { ($0.name.lowercased(), (name: $0.name, type: $0.type.uppercased())) },
                uniquingKeysWith: { a, _ in a })
            for column in columns {
                if let (storedName, type) = stored[column.name.lowercased()] {
                    guard storedName == column.name else {
                        throw StoreError(
                            path: path,
                            message:
                                "column '\(column.name)' of '\(name)' is spelt '\(storedName)' in the store; SQLite column names ignore case, so use '\(storedName)' or another name"
                        )
                    }
                    guard type == column.type.sqlType else {
                        throw StoreError(
                            path: path,
                            message:
                                "column '\(column.name)' of '\(name)' is \(type) in the store but \(column.type.rawValue) in the config; "
                                + "rename the column or use a new entity name")
                    }
                } else {
                    try db.execute(
                        sql: "ALTER TABLE \(quoted(name)) ADD COLUMN \(quoted(column.name)) \(column.type.sqlType)")
                }
            }
        } else {
            let definitions = columns.map { "\(quoted($0.name)) \($0.type.sqlType)" }
            try db.execute(
                sql: "CREATE TABLE \(quoted(name)) (\(([common] + definitions + constraints).joined(separator: ", ")))"
                    + (withoutRowid ? " WITHOUT ROWID" : ""))
        }
        for index in indexes { try db.execute(sql: index) }
    }
}
