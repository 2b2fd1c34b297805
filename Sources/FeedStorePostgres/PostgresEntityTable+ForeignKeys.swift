import FeedKit
import FeedStore

/// Enforced relations as PostgreSQL foreign keys (``ForeignKey``):
/// `FOREIGN KEY (_feed, category_id) REFERENCES category(_feed, id) DEFERRABLE INITIALLY
/// DEFERRED`, shown by `information_schema` and `pg_constraint` to SQL tools.
///
/// PostgreSQL compares keys by type, so the child's `bigint` cannot reference the parent's
/// text `_key`: the foreign key references the parent's key column, to which the parent gains
/// a unique constraint on `(_feed, <key column>)` (unique like `_key`, whose text it is). The
/// child gets an index on `(_feed, <column>)`, which PostgreSQL does not make by itself: each
/// parent row a `replace` pass deletes looks its children up through it. Keys are added and
/// dropped in place; PostgreSQL checks the rows already there when a key is added.
extension PostgresEntityTable {
    /// The foreign keys of `table` that have Feedwork's shape, with their constraint names.
    static func foreignKeys(of table: String, in connection: PostgresConnection) throws(PostgresError)
        -> [(key: ForeignKey, constraint: String)]
    {
        let rows = try connection.execute(
            """
            SELECT c.conname, p.relname, a.attname FROM pg_constraint AS c
            JOIN pg_class AS p ON p.oid = c.confrelid
            JOIN pg_attribute AS f ON f.attrelid = c.conrelid AND f.attnum = c.conkey[1]
            JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[2]
            WHERE c.conrelid = to_regclass($1) AND c.contype = 'f' AND cardinality(c.conkey) = 2
                AND f.attname = '_feed'
            ORDER BY c.conname
            """, [PostgresSQL.identifier(table)])
        return (0..<rows.count).map { row in
            (ForeignKey(entity: table, column: rows[row, 2] ?? "", parent: rows[row, 1] ?? ""), rows[row, 0] ?? "")
        }
    }

    /// Gives `schema`'s table the foreign keys of its enforced relations (and drops those it no
    /// longer enforces), with the parents' unique constraints and the children's indexes. Call
    /// it once the parents' tables and schemas are in the store.
    ///
    /// - Throws: ``StoreError`` naming the server when a foreign key cannot be declared, or
    ///   rows already in the table point at nothing (``ForeignKeyViolation``).
    static func setForeignKeys(_ schema: EntitySchema, in connection: PostgresConnection) throws {
        let wanted = ForeignKey.declared(by: schema)
        let existing = try foreignKeys(of: schema.name, in: connection)
        let namespace = try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? ""
        let table = PostgresSQL.qualified(schema.name, in: namespace)
        for (key, constraint) in existing where !wanted.contains(key) {
            try connection.execute("ALTER TABLE \(table) DROP CONSTRAINT \(PostgresSQL.identifier(constraint))")
            try connection.execute("DROP INDEX IF EXISTS \(PostgresSQL.identifier(namespace)).\(referenceIndex(key))")
        }
        guard !wanted.isEmpty else { return }
        let schemas = try PostgresSQLConnection(connection: connection).entitySchemas()
        for key in wanted {
            let parentColumn = try parentKeyColumn(key, child: schema, schemas: schemas, in: connection)
            let column = PostgresSQL.identifier(key.column)
            if !existing.contains(where: { $0.key == key }) {
                if let violation = try key.firstDangling(on: PostgresSQLConnection(connection: connection)) {
                    throw StoreError(path: connection.location, violation)
                }
                let parent = PostgresSQL.qualified(key.parent, in: namespace)
                let parentKey = "(\"_feed\", \(PostgresSQL.identifier(parentColumn)))"
                if try !hasUniqueKey(parentColumn, on: key.parent, in: connection) {
                    try connection.execute("ALTER TABLE \(parent) ADD UNIQUE \(parentKey)")
                }
                try connection.execute(
                    "ALTER TABLE \(table) ADD FOREIGN KEY (\"_feed\", \(column)) REFERENCES \(parent) \(parentKey) "
                        + "DEFERRABLE INITIALLY DEFERRED")
            }
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \(referenceIndex(key)) ON \(table) (\"_feed\", \(column))")
        }
    }

    /// The parent's key column that `key` references, once the store can declare it.
    ///
    /// - Throws: ``StoreError`` saying why it cannot
    ///   (``ForeignKey/problem(child:parent:parentKeepsHistory:parentKeyed:)``).
    private static func parentKeyColumn(
        _ key: ForeignKey, child: EntitySchema, schemas: [String: EntitySchema], in connection: PostgresConnection
    ) throws -> String {
        let parent = schemas[key.parent]
        let history = try connection.execute("SELECT history FROM _entities WHERE name = $1", [key.parent])
        let keyed = try connection.execute(
            "SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'p'",
            [PostgresSQL.identifier(key.parent)])
        if let problem = key.problem(
            child: child, parent: parent, parentKeepsHistory: history.first(column: 0) == "t",
            parentKeyed: keyed.count > 0)
        {
            throw StoreError(path: connection.location, message: key.declarationError(problem))
        }
        return parent?.key.first ?? "_key"
    }

    /// Whether `table` has a unique constraint on `(_feed, column)`.
    private static func hasUniqueKey(_ column: String, on table: String, in connection: PostgresConnection)
        throws(PostgresError) -> Bool
    {
        let rows = try connection.execute(
            """
            SELECT 1 FROM pg_constraint AS c
            WHERE c.conrelid = to_regclass($1) AND c.contype IN ('u', 'p') AND cardinality(c.conkey) = 2
                AND (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                    JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) = ARRAY['_feed', $2]
            """, [PostgresSQL.identifier(table), column])
        return rows.count > 0
    }

    /// The name of the index on the child's `(_feed, <column>)`.
    private static func referenceIndex(_ key: ForeignKey) -> String {
        PostgresSQL.identifier("\(key.entity)_\(key.column)_ref")
    }

    /// Whether a row written in the transaction under way points at nothing through a foreign
    /// key: the deferred checks run now (`SET CONSTRAINTS ALL IMMEDIATE`, at the cost they would
    /// have at the commit, which then has none left to run); when one fails, the transaction
    /// goes back to before them, so the row can be looked for.
    static func foreignKeysBroken(in connection: PostgresConnection) throws(PostgresError) -> Bool {
        try connection.execute("SAVEPOINT feedwork_foreign_keys")
        do {
            try connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
            try connection.execute("RELEASE SAVEPOINT feedwork_foreign_keys")
            return false
        } catch {
            guard error.sqlState == "23503" else { throw error }  // foreign_key_violation
            try connection.execute("ROLLBACK TO SAVEPOINT feedwork_foreign_keys")
            return true
        }
    }
}
