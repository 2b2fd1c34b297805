import FeedKit
import FeedStore

/// The SQL of ``StoreDrop`` on PostgreSQL, in the transaction of `connection`.
struct PostgresDropStatements: DropStatements {
    let connection: PostgresConnection

    package var location: String { connection.location }

    package func schemas() throws -> [String: EntitySchema] { try PostgresStore.schemas(in: connection) }

    func execute(_ sql: String, _ arguments: [String]) throws -> Int {
        try connection.execute(PostgresDialect().numbered(sql), arguments).changed
    }

    func integer(_ sql: String, _ arguments: [String]) throws -> Int {
        Int(try connection.execute(PostgresDialect().numbered(sql), arguments).first(column: 0) ?? "") ?? 0
    }

    func retired(of entity: String) throws -> String? {
        try connection.execute("SELECT retired::text FROM _entities WHERE name = $1", [entity]).first(column: 0)
    }

    func columns(of table: String) throws -> [String] {
        let namespace = try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? ""
        let rows = try connection.execute(
            """
            SELECT attname FROM pg_attribute
            WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum
            """, [PostgresSQL.qualified(table, in: namespace)])
        return (0..<rows.count).compactMap { rows[$0, 0] }
    }

    func dropColumn(_ column: String, of table: String) throws {
        let namespace = try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? ""
        try connection.execute(
            "ALTER TABLE \(PostgresSQL.qualified(table, in: namespace)) DROP COLUMN \(PostgresSQL.identifier(column))")
    }

    func dropTable(_ table: String) throws {
        let namespace = try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? ""
        try connection.execute("DROP TABLE IF EXISTS \(PostgresSQL.qualified(table, in: namespace))")
    }

    func dropView(of entity: String) throws { try PostgresEntityView.drop(of: entity, in: connection) }

    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws {
        try PostgresEntityView.ensure(schema, schemas: schemas, in: connection)
    }
}

extension PostgresStore {
    /// Drops `target` in one transaction (``StoreDrop``), holding the lock that serializes
    /// changes to a dropped entity's tables; returns what was removed.
    package func drop(_ target: DropTarget) async throws -> String {
        try await write { connection in
            switch target {
            case .entity(let name), .column(let name, _):
                try connection.execute(PostgresSQL.entityChangeLockSQL, [name.lowercased()])
            case .feed: break
            }
            return try StoreDrop.drop(target, on: PostgresDropStatements(connection: connection))
        }
    }
}
