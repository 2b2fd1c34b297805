import FeedKit
import Foundation
import Testing

@testable import FeedEngine

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
}
