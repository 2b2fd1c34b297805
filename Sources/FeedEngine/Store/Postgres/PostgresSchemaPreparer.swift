import FeedKit

/// The SQL of ``SchemaPreparation`` on PostgreSQL, in the transaction of `connection`.
struct PostgresSchemaPreparer: SchemaPreparing {
    let connection: PostgresConnection

    var location: String { connection.location }

    /// PostgreSQL's quoted names keep their case, but an SQLite store could not hold both, and
    /// every store holds the same entities.
    var caseRule: String { "every store refuses such names (SQLite's table names ignore case)" }

    func entityNames() throws -> [String] {
        let rows = try connection.execute("SELECT name FROM _entities")
        return (0..<rows.count).compactMap { rows[$0, 0] }
    }

    func schemas() throws -> [String: EntitySchema] { try PostgresStore.schemas(in: connection) }

    func keepsHistory(_ entity: String) throws -> Bool {
        try connection.execute("SELECT history FROM _entities WHERE name = $1", [entity]).first(column: 0) == "t"
    }

    func ensureTables(_ schema: EntitySchema, keyed: Bool) throws {
        try PostgresEntityTable.ensure(schema, keyed: keyed, in: connection)
    }

    func record(_ schema: EntitySchema, json: String, history: Bool) throws {
        try connection.execute(
            """
            INSERT INTO _entities(name, schema, history) VALUES ($1, $2, $3)
            ON CONFLICT (name) DO UPDATE SET schema = excluded.schema, history = excluded.history
            """, [schema.name, json, history ? "true" : "false"])
    }

    func setForeignKeys(_ schema: EntitySchema) throws {
        try PostgresEntityTable.setForeignKeys(schema, in: connection)
    }

    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws {
        try PostgresEntityView.ensure(schema, schemas: schemas, in: connection)
    }
}
