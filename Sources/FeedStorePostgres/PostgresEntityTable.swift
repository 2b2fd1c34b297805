import FeedKit
import FeedStore

/// An entity's table and its child tables on PostgreSQL, with the types a SQL user expects.
///
/// The shapes are the SQLite store's (``SQLiteEntityTable``): the common columns `_feed`, `_key`,
/// `_hash`, `_run`, `_first_seen`, `_last_seen` before the schema's own, and child tables
/// `<entity>__<list>` with `_feed`, `_key` (the parent's) and `_position`. Times are
/// `timestamptz`, hashes and runs `bigint`, and the schema's columns are typed by
/// ``sqlType(_:)``.
///
/// Tables are keyed by `(_feed, _key)` (children by `(_feed, _key, _position)`) unless a feed
/// keeps the entity's history (`append`): its keys repeat, so the entity and its children have
/// an index on `(_feed, _key)` instead. On PostgreSQL a key is added or dropped in place, where
/// SQLite rebuilds the table.
enum PostgresEntityTable {
    /// The PostgreSQL type of a schema column: the type a SQL user expects for it.
    static func sqlType(_ type: ColumnType) -> String {
        switch type {
        case .integer: "bigint"
        case .real: "double precision"
        case .boolean: "boolean"
        case .decimal: "numeric"
        case .timestamp: "timestamptz"
        case .date: "date"
        case .json: "jsonb"
        case .text: "text"
        }
    }

    /// How `format_type` spells ``sqlType(_:)``, to compare with the columns of a stored table.
    static func storedTypeName(_ type: ColumnType) -> String {
        type == .timestamp ? "timestamp with time zone" : sqlType(type)
    }

    /// The common columns, then `_row`: PostgreSQL's stand-in for SQLite's rowid, numbered as
    /// rows are inserted and kept when they are updated, so that exports list rows that tie on
    /// their order in the same order from both stores.
    static let commonColumns = """
        "_feed" text NOT NULL, "_key" text NOT NULL, "_hash" bigint NOT NULL, "_run" bigint NOT NULL, \
        "_first_seen" timestamptz NOT NULL, "_last_seen" timestamptz NOT NULL, \
        "_row" bigint GENERATED ALWAYS AS IDENTITY
        """
    static let childCommonColumns = #""_feed" text NOT NULL, "_key" text NOT NULL, "_position" bigint NOT NULL"#

    /// The storage parameters of an entity's table, not of its child tables: pages filled half
    /// full when rows are inserted, so that a later pass moving `_last_seen` (or rewriting a
    /// changed row) writes the new version of a row on its own page, a heap-only tuple that
    /// needs no new index entry and leaves the page reclaimable without a vacuum. Measured on
    /// W1 (100,000 rows, a full refresh with every record unchanged): 1.27 to 1.43 s at 50
    /// against 1.68 to 2.05 s at 100 (the default) and 1.42 to 1.78 s at 70; the table is
    /// twice as large after the first pass, and after four passes smaller (28 MB against 54 MB
    /// at 100, whose rewritten rows leave dead versions and index entries behind). It is given
    /// when a table is created, and to the tables of an older store by migration 2 (for the
    /// pages written from then on).
    static let entityStorage = "fillfactor = 50"

    /// Creates the entity's tables when missing, adds the columns the schema gained since, and
    /// gives the tables their primary key or takes it away as `keyed` says.
    ///
    /// - Parameter keyed: whether keys are unique, so that the tables have primary keys: true
    ///   unless a feed keeps the entity's history (`append`). A table whose rows repeat a key
    ///   keeps none, like on SQLite.
    /// - Throws: ``PostgresEntityError`` when an existing column's type differs from the
    ///   schema's, or the server refuses a statement.
    static func ensure(_ schema: EntitySchema, keyed: Bool = true, in connection: PostgresConnection)
        throws(PostgresEntityError)
    {
        try ensureTable(
            schema.name, of: schema.name, common: commonColumns, columns: schema.columns,
            key: ["_feed", "_key"], keyed: keyed, storage: entityStorage, in: connection)
        for child in schema.children {
            try ensureTable(
                schema.childTableName(child), of: schema.name, common: childCommonColumns, columns: child.columns,
                key: ["_feed", "_key", "_position"], keyed: keyed, storage: nil, in: connection)
        }
    }

    private static func ensureTable(
        _ table: String, of entity: String, common: String, columns: [FeedKit.Column], key: [String], keyed: Bool,
        storage: String?, in connection: PostgresConnection
    ) throws(PostgresEntityError) {
        func run(_ sql: String, _ parameters: [String?] = [], _ what: String) throws(PostgresEntityError)
            -> PostgresRows
        {
            do {
                return try connection.execute(sql, parameters)
            } catch {
                throw .server(error, entity: entity, table: table, doing: what)
            }
        }
        let namespace =
            try run(PostgresSQL.currentSchemaSQL, [], "cannot read the store's schema").first(column: 0) ?? ""
        let quoted = PostgresSQL.qualified(table, in: namespace)
        let stored = try run(
            """
            SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
            WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            """, [quoted], "cannot read the table's columns")
        if stored.count == 0 {
            let definitions = [common] + columns.map { "\(PostgresSQL.identifier($0.name)) \(sqlType($0.type))" }
            _ = try run(
                "CREATE TABLE \(quoted) (\(definitions.joined(separator: ", ")))"
                    + (storage.map { " WITH (\($0))" } ?? ""),
                [], "cannot create the table")
        } else {
            var types: [String: String] = [:]
            for row in 0..<stored.count { types[stored[row, 0] ?? ""] = stored[row, 1] }
            for column in columns {
                if let type = types[column.name] {
                    guard type == storedTypeName(column.type) else {
                        throw PostgresEntityError(
                            entity: entity, table: table, column: column.name,
                            message:
                                "the column is \(type) in the store but \(column.type.rawValue) "
                                + "(\(sqlType(column.type))) in the config; rename the column or use a new entity name")
                    }
                } else {
                    _ = try run(
                        "ALTER TABLE \(quoted) ADD COLUMN \(PostgresSQL.identifier(column.name)) \(sqlType(column.type))",
                        [], "cannot add column '\(column.name)'")
                }
            }
        }
        try setKey(keyed, table: table, quoted: quoted, namespace: namespace, key: key, run: run)
    }

    /// Adds or drops the primary key on `key`, and the `(_feed, _key)` index that serves lookups
    /// of a table without one.
    private static func setKey(
        _ keyed: Bool, table: String, quoted: String, namespace: String, key: [String],
        run: (String, [String?], String) throws(PostgresEntityError) -> PostgresRows
    ) throws(PostgresEntityError) {
        let constraint = try run(
            "SELECT conname FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'p'", [quoted],
            "cannot read the table's key")
        let existing = constraint.count > 0 ? constraint[0, 0] : nil
        var isKeyed = existing != nil
        if keyed && existing == nil {
            let columns = key.map(PostgresSQL.identifier).joined(separator: ", ")
            let repeated = try run(
                "SELECT EXISTS (SELECT 1 FROM \(quoted) GROUP BY \(columns) HAVING count(*) > 1)", [],
                "cannot check the table's keys")
            if repeated[0, 0] != "t" {
                _ = try run("ALTER TABLE \(quoted) ADD PRIMARY KEY (\(columns))", [], "cannot add the primary key")
                isKeyed = true
            }
        } else if !keyed, let existing {
            _ = try run(
                "ALTER TABLE \(quoted) DROP CONSTRAINT \(PostgresSQL.identifier(existing))", [],
                "cannot drop the primary key")
            isKeyed = false
        }
        if !keyed {
            // The unique `(_feed, <key column>)` that a foreign key once referenced
            // (`PostgresEntityTable+ForeignKeys`) would refuse a second version of a record.
            let unique = try run(
                "SELECT conname FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'u'", [quoted],
                "cannot read the table's unique constraints")
            for row in 0..<unique.count {
                _ = try run(
                    "ALTER TABLE \(quoted) DROP CONSTRAINT \(PostgresSQL.identifier(unique[row, 0] ?? ""))", [],
                    "cannot drop a unique constraint")
            }
        }
        let index = table + "_feed_key"
        _ = try run(
            isKeyed
                ? "DROP INDEX IF EXISTS \(PostgresSQL.qualified(index, in: namespace))"
                : "CREATE INDEX IF NOT EXISTS \(PostgresSQL.identifier(index)) ON \(quoted) (\"_feed\", \"_key\")", [],
            "cannot set the table's index")
    }
}
