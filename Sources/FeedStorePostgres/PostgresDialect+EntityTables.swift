import FeedKit
import FeedStore

/// Entity tables on PostgreSQL (``EntityTable``), with the types a SQL user expects, altered in
/// place where SQLite rebuilds them.
///
/// The shapes are the SQLite store's: the common columns `_feed`, `_key`, `_hash`, `_run`,
/// `_first_seen`, `_last_seen` (then `_row`, ``commonColumns``) before the schema's own, child
/// tables `<entity>__<list>` with `_feed`, `_key` (the parent's) and `_position`. Times are
/// `timestamptz`, hashes and runs `bigint`, and the schema's columns are typed by
/// ``sqlType(_:)``. Tables are keyed by `(_feed, _key)` (children by `(_feed, _key,
/// _position)`) unless a feed keeps the entity's history (`append`): its keys repeat, so the
/// entity and its children have an index on `(_feed, _key)` instead.
///
/// Enforced relations are declared as `FOREIGN KEY (_feed, category_id) REFERENCES
/// category(_feed, id) DEFERRABLE INITIALLY DEFERRED`, shown by `information_schema` and
/// `pg_constraint` to SQL tools. PostgreSQL compares keys by type, so the child's `bigint`
/// cannot reference the parent's text `_key`: the foreign key references the parent's key
/// column, to which the parent gains a unique constraint on `(_feed, <key column>)` (unique
/// like `_key`, whose text it is). PostgreSQL checks the rows already there when a key is
/// added.
extension PostgresDialect {
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

    func columnType(_ type: ColumnType) -> String { Self.sqlType(type) }

    /// How `format_type` spells ``sqlType(_:)``.
    func storedColumnType(_ type: ColumnType) -> String {
        type == .timestamp ? "timestamp with time zone" : Self.sqlType(type)
    }

    /// The table of the connection's schema (PostgreSQL searches `pg_catalog` first).
    var storedColumnsSQL: String {
        """
        SELECT a.attname, format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 1 ELSE 0 END,
            coalesce(array_position(k.conkey, a.attnum), 0)
        FROM pg_attribute AS a LEFT JOIN pg_constraint AS k ON k.conrelid = a.attrelid AND k.contype = 'p'
        WHERE a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))
            AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum
        """
    }

    /// Keys from `(_feed, <column>)`, by constraint name.
    var foreignKeysSQL: String {
        """
        SELECT c.conname, p.relname, a.attname FROM pg_constraint AS c
        JOIN pg_class AS p ON p.oid = c.confrelid
        JOIN pg_attribute AS f ON f.attrelid = c.conrelid AND f.attnum = c.conkey[1]
        JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[2]
        WHERE c.conrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))
            AND c.contype = 'f' AND cardinality(c.conkey) = 2 AND f.attname = '_feed'
        ORDER BY c.conname
        """
    }

    var namespaceSQL: String? { PostgresSQL.currentSchemaSQL }

    /// Qualified with the connection's schema, so that a statement never reaches another
    /// schema's table (PostgreSQL searches `pg_catalog` before the search path's schemas).
    func qualified(_ name: String, in namespace: String?) -> String {
        namespace.map { PostgresSQL.qualified(name, in: $0) } ?? PostgresSQL.identifier(name)
    }

    /// Without foreign keys: ``reshape(_:to:in:)`` adds them once the parents' tables are there.
    func createTable(_ shape: EntityTableShape, columns: [Column], in namespace: String?) -> [String] {
        let key = shape.keyed ? [primaryKey(shape)] : []
        let definitions =
            [shape.kind == .entity ? Self.commonColumns : Self.childCommonColumns]
            + columns.map { "\(PostgresSQL.identifier($0.name)) \(Self.sqlType($0.type))" } + key
        return [
            "CREATE TABLE \(qualified(shape.name, in: namespace)) (\(definitions.joined(separator: ", ")))"
                + (shape.kind == .entity ? " WITH (\(Self.entityStorage))" : "")
        ]
    }

    /// `ALTER TABLE` statements: the foreign keys no longer wanted dropped, columns converted
    /// (`ALTER COLUMN ... TYPE ... USING`), the primary key added or dropped (with the unique
    /// constraints that foreign keys once referenced, which would refuse a second version of a
    /// record), and the new foreign keys added, each parent gaining its unique key first.
    func reshape(_ table: StoredTable, to shape: EntityTableShape, in namespace: String?) -> TableChange {
        let name = qualified(table.name, in: namespace)
        var statements: [String] = []
        for reference in table.references where !shape.foreignKeys.contains(reference.key) {
            statements.append("ALTER TABLE \(name) DROP CONSTRAINT \(PostgresSQL.identifier(reference.constraint))")
        }
        for (column, conversion) in shape.conversions.sorted(by: { $0.key < $1.key }) {
            statements.append(
                "ALTER TABLE \(name) ALTER COLUMN \(PostgresSQL.identifier(column)) TYPE "
                    + "\(Self.sqlType(conversion.type)) USING \(conversion.expression)")
        }
        let keyed = table.primaryKey == shape.keyColumns
        if shape.keyed && !keyed {
            statements.append("ALTER TABLE \(name) ADD \(primaryKey(shape))")
        } else if !shape.keyed && !table.primaryKey.isEmpty {
            statements.append(droppingKeys(of: name))
        }
        for key in shape.foreignKeys where !table.foreignKeys.contains(key) {
            let parent = qualified(key.parent, in: namespace)
            let column = shape.parentKeyColumns[key.parent] ?? "_key"
            statements.append(addingUniqueKey(on: column, to: parent))
            statements.append(
                "ALTER TABLE \(name) ADD FOREIGN KEY (\"_feed\", \(PostgresSQL.identifier(key.column))) "
                    + "REFERENCES \(parent) (\"_feed\", \(PostgresSQL.identifier(column))) DEFERRABLE INITIALLY DEFERRED"
            )
        }
        return TableChange(statements)
    }

    private func primaryKey(_ shape: EntityTableShape) -> String {
        "PRIMARY KEY (\(shape.keyColumns.map(PostgresSQL.identifier).joined(separator: ", ")))"
    }

    /// A block that drops the primary key and the unique constraints of `table`.
    private func droppingKeys(of table: String) -> String {
        """
        DO $feedwork$ DECLARE constraint_name text; BEGIN
            FOR constraint_name IN
                SELECT conname FROM pg_constraint WHERE conrelid = \(PostgresSQL.literal(table))::regclass AND contype IN ('p', 'u')
            LOOP
                EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', \(PostgresSQL.literal(table)), constraint_name);
            END LOOP;
        END $feedwork$
        """
    }

    /// A block that gives `table` a unique constraint on `(_feed, column)` unless a unique
    /// constraint or its primary key is on those columns already.
    private func addingUniqueKey(on column: String, to table: String) -> String {
        """
        DO $feedwork$ BEGIN
            IF NOT EXISTS (
                SELECT 1 FROM pg_constraint AS c
                WHERE c.conrelid = \(PostgresSQL.literal(table))::regclass AND c.contype IN ('u', 'p') AND cardinality(c.conkey) = 2
                    AND (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                        JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.attnum)
                        = ARRAY['_feed', \(PostgresSQL.literal(column))]
            ) THEN
                ALTER TABLE \(table) ADD UNIQUE ("_feed", \(PostgresSQL.identifier(column)));
            END IF;
        END $feedwork$
        """
    }
}
