import FeedStore
import Testing

@testable import FeedStorePostgres

/// A PostgreSQL store made by an older Feedwork, brought up to date by the migrations that
/// follow its version (``PostgresMigrations``), its rows kept.
@Suite("PostgreSQL store migrations")
struct PostgresMigrationTests {
    @Test func aStoreAtVersionOneGainsRoomForUpdatesAndKeepsItsRows() async throws {
        try PostgresTestServer.withSchema { connection, schema in
            // A store as version 1 left it: an entity table without a fillfactor, one row.
            try PostgresMigrations.migrate(connection, schema: schema, upTo: 1)
            try connection.execute(
                "CREATE TABLE item (_feed text NOT NULL, _key text NOT NULL, value bigint, PRIMARY KEY (_feed, _key))")
            try connection.execute("INSERT INTO _entities(name, schema) VALUES ('item', '{}')")
            try connection.execute("INSERT INTO item VALUES ('items', 'a', 1)")

            try PostgresMigrations.migrate(connection, schema: schema)
            #expect(try PostgresMigrations.version(connection) == PostgresMigrations.latest)
            let options = try connection.execute(
                "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = 'item'::regclass")
            #expect(options[0, 0] == "fillfactor=50")
            #expect(try connection.execute("SELECT value FROM item WHERE _key = 'a'")[0, 0] == "1")
        }
    }
}
