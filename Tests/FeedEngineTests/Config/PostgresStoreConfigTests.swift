import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

/// `store:` naming a PostgreSQL database, and `schema:`.
@Suite("Config: a PostgreSQL store")
struct PostgresStoreConfigTests {
    let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: ["PGPASS": "p4ss-w0rd"])

    func load(_ top: String) throws -> FeedsConfig {
        try loader.load(
            yaml: top + "\nfeeds:\n  - { name: one, adapter: items, url: a.json }\n", path: "feeds.yaml",
            directory: "/srv/feeds")
    }

    func problems(_ top: String) -> [String] {
        loader.problems(top + "\nfeeds:\n  - { name: one, adapter: items, url: a.json }\n")
    }

    @Test func aPostgresURLIsTheStoreWithTheFeedworkSchemaByDefault() throws {
        let config = try load("store: postgres://feeder@db.internal:5432/feeds?sslmode=disable")
        #expect(config.storeLocation.store == "postgres://feeder@db.internal:5432/feeds?sslmode=disable")
        #expect(config.storeLocation.schema == "feedwork")
        #expect(config.storeLocation.filePath == nil)
        #expect(config.storeDescription == "postgres://feeder@db.internal:5432/feeds?sslmode=disable (schema feedwork)")
    }

    @Test func thePasswordFromTheEnvironmentIsKeptButNeverShown() throws {
        let config = try load("store: postgres://feeder:${PGPASS}@localhost/feeds\nschema: analytics")
        #expect(config.storeLocation.store == "postgres://feeder:p4ss-w0rd@localhost/feeds")
        #expect(config.storeLocation.schema == "analytics")
        #expect(!config.storeDescription.contains("p4ss-w0rd"))
        #expect(config.redactor.redact(config.storeLocation.store) == "postgres://feeder:***@localhost/feeds")
    }

    @Test func aURLWithoutADatabaseIsAProblemAtItsLine() {
        #expect(
            problems("store: postgres://localhost")
                == [
                    "feeds.yaml:1:8: error: the store postgres://localhost names no database: add it after the host, as in postgres://localhost/feeds"
                ])
    }

    @Test(arguments: ["information_schema", "pg_catalog", "pg_toast", "pg_temp_3", "pg_feeds"])
    func postgreSQLsOwnSchemasAreRefusedAtTheirLine(schema: String) {
        #expect(
            problems("store: postgres://localhost/feeds\nschema: \(schema)")
                == [
                    "feeds.yaml:2:9: error: 'schema' cannot be '\(schema)': information_schema, pg_catalog and every pg_ schema belong to PostgreSQL; choose another name, such as feedwork"
                ])
    }

    /// The problems of a config whose one feed writes the entity `entity`, on `store`.
    func entityProblems(_ entity: String, store: String = "postgres://localhost/feeds") -> [String] {
        loader.problems("store: \(store)\nfeeds:\n  - { name: one, adapter: items, url: a.json, entity: \(entity) }\n")
    }

    @Test func anEntityNamedLikePostgreSQLsCatalogIsRefusedOnPostgres() {
        #expect(
            entityProblems("pg_class")
                == [
                    "feeds.yaml:3:55: error: entity 'pg_class': names beginning with pg_ are PostgreSQL's (its catalog comes first on the search path, so 'pg_class' could name a system table); choose another entity name"
                ])
        #expect(entityProblems("pg_class", store: "feeds.sqlite").isEmpty)
    }

    @Test func anEntityNameTooLongForPostgreSQLIsRefusedWithTheNameItWouldCut() {
        // 56 bytes: the table and its view fit in 63, its `_feed_key` index does not.
        let name = "e" + String(repeating: "x", count: 55)
        #expect(
            entityProblems(name)
                == [
                    "feeds.yaml:3:55: error: entity '\(name)': the index '\(name)_feed_key' is 65 bytes, over PostgreSQL's limit of 63 (it would cut the name, which could then mean another one); use a shorter entity name"
                ])
        #expect(entityProblems(String(name.prefix(54))).isEmpty)
        #expect(entityProblems(name, store: "feeds.sqlite").isEmpty)
    }

    @Test func aSchemaOnAFileStoreIsOneProblemWhateverItsName() {
        #expect(
            problems("schema: Feed-Work")
                == ["feeds.yaml:1:9: error: 'schema' applies to a PostgreSQL store (store: postgres://...)"])
    }

    @Test func theStoresProblemIsRedactedAtTheLineOfStore() {
        let found = problems("store: postgres://${PGPASS}@/feeds")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("feeds.yaml:1:8: error: the store postgres://") == true)
        #expect(found.first?.contains("p4ss-w0rd") == false)
    }

    @Test func aSchemaMustBeAPlainIdentifierAndOnlyForPostgres() {
        #expect(
            problems("store: postgres://localhost/feeds\nschema: Feed-Work").first?.contains("'schema' must be") == true
        )
        #expect(
            problems("schema: feedwork")
                == ["feeds.yaml:1:9: error: 'schema' applies to a PostgreSQL store (store: postgres://...)"])
    }
}
