import FeedKit
import FeedStore
import GRDB

/// The SQL of ``SchemaPreparation`` on SQLite, in the transaction of `db`.
struct SQLiteSchemaPreparer: SchemaPreparing {
    let db: Database
    let location: String

    var caseRule: String { "SQLite table names ignore case" }

    func entityNames() throws -> [String] { try String.fetchAll(db, sql: "SELECT name FROM _entities") }

    func schemas() throws -> [String: EntitySchema] { try SQLiteStore.schemas(in: db) }

    func keepsHistory(_ entity: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT history FROM _entities WHERE name = ?", arguments: [entity]) ?? false
    }

    var dialect: any SQLDialect { SQLiteDialect() }

    /// A child table may have no rowid (``SQLiteEntityTable/childPrimaryKey``): its rows in
    /// the order of their key.
    func storedValues(of column: String, in table: String, child: Bool) throws
        -> [(feed: String, key: String, value: String)]
    {
        let quoted = SQLIdentifier.quoted(column)
        return try Row.fetchAll(
            db,
            sql: """
                SELECT _feed, _key, CAST(\(quoted) AS TEXT) AS value FROM \(SQLIdentifier.quoted(table))
                WHERE \(quoted) IS NOT NULL ORDER BY \(child ? "_feed, _key, _position" : "rowid")
                """
        ).map { row in (feed: row["_feed"] as String, key: row["_key"] as String, value: row["value"] as String) }
    }

    /// A rebuild of the table, when the column's storage type changes (SQLite cannot alter a
    /// column); else the values are rewritten in place.
    func convert(
        _ column: String, of table: String, in schema: EntitySchema, to type: ColumnType, expression: String
    ) throws {
        try SQLiteEntityTable.convert(
            column, of: table, child: table != schema.name, to: type, expression: expression, in: db, path: location)
    }

    func retired(_ entity: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT retired FROM _entities WHERE name = ?", arguments: [entity])
    }

    func ensureTables(_ schema: EntitySchema, keyed: Bool) throws {
        try SQLiteEntityTable.ensure(schema, keyed: keyed, in: db, path: location)
    }

    /// Leaves the row as it is when nothing changed, so that an unchanged pass writes nothing.
    func record(_ schema: EntitySchema, json: String, history: Bool, retired: String?) throws {
        try db.execute(
            sql: """
                INSERT INTO _entities(name, schema, history, retired) VALUES (?, ?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET schema = excluded.schema, history = excluded.history,
                    retired = excluded.retired
                WHERE schema IS NOT excluded.schema OR history IS NOT excluded.history
                    OR retired IS NOT excluded.retired
                """,
            arguments: [schema.name, json, history, retired])
    }

    func setForeignKeys(_ schema: EntitySchema) throws {
        try SQLiteEntityTable.setForeignKeys(schema, in: db, path: location)
    }

    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws {
        try SQLiteEntityView.ensure(schema, schemas: schemas, in: db)
    }

    func ensureSearch(_ schema: EntitySchema) throws { try SQLiteSearchIndex.ensure(schema, in: db) }
}
