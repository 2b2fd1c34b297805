import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// Names PostgreSQL keeps for itself, against a real server: Feedwork never writes into them.
@Suite("PostgreSQL store: reserved names")
struct PostgresNameTests {
    @Test(arguments: ["information_schema", "pg_catalog", "pg_feedwork"])
    func aStoreInOneOfPostgreSQLsOwnSchemasIsRefusedBeforeAnythingIsCreated(schema: String) throws {
        guard let url = PostgresTestServer.url else { return PostgresTestServer.reportAbsence() }
        #expect {
            _ = try PostgresStore(url: url, schema: schema)
        } throws: { error in
            "\(error)".contains("'schema' cannot be '\(schema)'")
        }
        let connection = try PostgresConnection(url: url)
        let made = try connection.execute(
            "SELECT count(*) FROM pg_class WHERE relname = '_migrations' AND relnamespace::regnamespace::text = $1",
            [schema])
        #expect(made.first(column: 0) == "0")
        let schemas = try connection.execute("SELECT count(*) FROM pg_namespace WHERE nspname = $1", [schema])
        #expect(schemas.first(column: 0) == (schema == "pg_feedwork" ? "0" : "1"))
    }

    @Test func tablesAndViewsAreMadeInTheStoresSchemaWhateverTheirName() throws {
        // `validate` and the pass refuse a `pg_` entity; below them, the statements that make
        // and change tables and keys name the store's schema, so that even such a name never
        // reaches `pg_catalog`, which PostgreSQL searches first. (A view's query, shared with
        // SQLite, names its tables as they are: the refusal is what keeps it right.)
        try PostgresTestServer.withSchema { connection, schema in
            let entity = EntitySchema(
                name: "pg_class", columns: [Column("id", .text, nullable: false), Column("value", .integer)],
                key: ["id"])
            try EntityTable.ensure(entity, on: PostgresSQLConnection(connection: connection))
            try EntityTable.ensure(entity, keyed: false, on: PostgresSQLConnection(connection: connection))
            let ours = try connection.execute("SELECT to_regclass($1) IS NOT NULL", ["\"\(schema)\".\"pg_class\""])
            #expect(ours.first(column: 0) == "t")
            let catalog = try connection.execute(
                "SELECT count(*) FROM pg_attribute WHERE attrelid = 'pg_catalog.pg_class'::regclass AND attname = 'value'"
            )
            #expect(catalog.first(column: 0) == "0")
        }
    }
}
