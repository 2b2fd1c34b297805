import FeedKit
import FeedStore

/// The SQL of ``SchemaPreparation`` on PostgreSQL, in the transaction of `connection`.
struct PostgresSchemaPreparer: SchemaPreparing {
    let connection: PostgresConnection

    package var location: String { connection.location }

    /// PostgreSQL's quoted names keep their case, but an SQLite store could not hold both, and
    /// every store holds the same entities.
    var caseRule: String { "every store refuses such names (SQLite's table names ignore case)" }

    func entityNames() throws -> [String] {
        let rows = try connection.execute("SELECT name FROM _entities")
        return (0..<rows.count).compactMap { rows[$0, 0] }
    }

    package func schemas() throws -> [String: EntitySchema] { try PostgresStore.schemas(in: connection) }

    func keepsHistory(_ entity: String) throws -> Bool {
        try connection.execute("SELECT history FROM _entities WHERE name = $1", [entity]).first(column: 0) == "t"
    }

    package var dialect: any SQLDialect { PostgresDialect() }

    /// A child table has no `_row`: its rows in the order of their key.
    func storedValues(of column: String, in table: String, child: Bool) throws
        -> [(feed: String, key: String, value: String)]
    {
        let quoted = PostgresSQL.identifier(column)
        let namespace = try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? ""
        let rows = try connection.execute(
            """
            SELECT _feed, _key, \(quoted)::text FROM \(PostgresSQL.qualified(table, in: namespace))
            WHERE \(quoted) IS NOT NULL ORDER BY \(child ? "_feed, _key, _position" : "_row")
            """)
        return (0..<rows.count).map { (feed: rows[$0, 0] ?? "", key: rows[$0, 1] ?? "", value: rows[$0, 2] ?? "") }
    }

    func convert(
        _ column: String, of table: String, in schema: EntitySchema, to type: ColumnType, expression: String
    ) throws {
        try PostgresEntityTable.convert(column, of: table, to: type, expression: expression, in: connection)
    }

    func retired(_ entity: String) throws -> String? {
        try connection.execute("SELECT retired::text FROM _entities WHERE name = $1", [entity]).first(column: 0)
    }

    func ensureTables(_ schema: EntitySchema, keyed: Bool) throws {
        try PostgresEntityTable.ensure(schema, keyed: keyed, in: connection)
    }

    func record(_ schema: EntitySchema, json: String, history: Bool, retired: String?) throws {
        try connection.execute(
            """
            INSERT INTO _entities(name, schema, history, retired) VALUES ($1, $2, $3, $4)
            ON CONFLICT (name) DO UPDATE SET schema = excluded.schema, history = excluded.history,
                retired = excluded.retired
            """, [schema.name, json, history ? "true" : "false", retired])
    }

    func setForeignKeys(_ schema: EntitySchema) throws {
        try PostgresEntityTable.setForeignKeys(schema, in: connection)
    }

    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws {
        try PostgresEntityView.ensure(schema, schemas: schemas, in: connection)
    }

    func ensureSearch(_ schema: EntitySchema) throws { try PostgresSearchIndex.ensure(schema, in: connection) }
}
