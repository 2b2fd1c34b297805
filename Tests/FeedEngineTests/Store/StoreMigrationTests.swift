import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import GRDB
import Testing

@testable import FeedEngine
@testable import FeedStoreSQLite

@Suite("Store migrations")
struct StoreMigrationTests {
    /// The table in which `driver`'s store records the migrations it ran.
    static func migrations(_ driver: HarnessStore) -> String {
        driver == .sqlite ? "grdb_migrations" : "_migrations"
    }

    /// A row recording a migration from a later Feedwork.
    static func laterMigration(_ driver: HarnessStore) -> String {
        driver == .sqlite
            ? "INSERT INTO grdb_migrations(identifier) VALUES ('v99: from a later Feedwork')"
            : "INSERT INTO _migrations(version, name) VALUES (99, 'from a later Feedwork')"
    }

    /// Removes the later migration's row (on a connection that checks nothing: Feedwork refuses
    /// the store while it is there).
    static func forgetLaterMigration(_ harness: FeedHarness) async throws {
        try await harness.execute(
            harness.storeKind == .sqlite
                ? "DELETE FROM grdb_migrations WHERE identifier LIKE 'v99:%'"
                : "DELETE FROM _migrations WHERE version = 99")
    }

    static func itemsHarness(_ driver: HarnessStore) throws -> FeedHarness {
        try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: items, adapter: items, url: items.json }\n",
            files: ["items.json": itemsJSON([("a", 1), ("b", 2), ("c", 3)])], store: driver)
    }

    @Test(arguments: HarnessStore.available)
    func openingAStoreAgainMigratesNothingAndKeepsItsRows(driver: HarnessStore) async throws {
        let harness = try Self.itemsHarness(driver)
        _ = try await harness.run()
        let applied = try await harness.count(Self.migrations(driver))
        #expect(applied > 0)
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.counts.unchanged == 3)
        #expect(try await harness.count(Self.migrations(driver)) == applied)
    }

    @Test(arguments: HarnessStore.available)
    func aStoreWrittenByANewerFeedworkIsRefusedAndLeftAsItWas(driver: HarnessStore) async throws {
        let harness = try Self.itemsHarness(driver)
        _ = try await harness.run()
        try await harness.execute(Self.laterMigration(driver))
        try harness.write("items.json", itemsJSON([("z", 9)]))
        await #expect {
            _ = try await harness.run()
        } throws: { error in
            "\(error)".contains("written by a newer Feedwork")
        }
        try await Self.forgetLaterMigration(harness)
        #expect(try await harness.count("item") == 3, "the refused run wrote nothing")
    }

    @Test func aStoreMadeBySchemaVersionOneOpensAndKeepsItsRows() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        // A store as the first schema version left it: system tables of v1, one entity table, one run.
        let old = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(old, upTo: "v1: runs, rejects, cache, state, entities")
        try await old.write { db in
            try EntityTable.ensure(ItemsAdapter.schema(named: "item"), on: SQLiteSQLConnection(db: db, location: path))
            try db.execute(
                sql: """
                    INSERT INTO _runs(feed, adapter, started_at, status) VALUES ('items', 'items', '2026-01-01T00:00:00.000Z', 'ok');
                    INSERT INTO item(_feed, _key, _hash, _run, _first_seen, _last_seen, id, value)
                    VALUES ('items', 'a', 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'a', 1);
                    """)
        }
        #expect(try await old.read { try $0.tableExists("_outbox") } == false)
        try old.close()

        let store = Store(try SQLiteStore(path: path))
        let tables = try await store.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_outbox'")
        #expect(tables.count == 1, "the missing migration ran")
        #expect(try await store.query("SELECT count(*) AS n FROM _tombstones") == [["n": .integer(0)]])
        #expect(try await store.query("SELECT id, value FROM item") == [["id": .text("a"), "value": .integer(1)]])

        // And the next pass works on it, updating the old row by content.
        try Data(itemsJSON([("a", 2)])).write(to: directory.appendingPathComponent("items.json"))
        try Data("store: feeds.sqlite\nfeeds:\n  - { name: items, adapter: items, url: items.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        let config = try ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]))
            .load(path: directory.appendingPathComponent("feeds.yaml").path)
        let report = try await Engine.open(config).run()
        #expect(report.feeds.first?.counts.updated == 1)
    }

    @Test func rejectsStoredBeforeTheirSourceWasKeptGainANullURLAndPage() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        let old = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(old, upTo: "v3: compressed cache bodies")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO _rejects(run, feed, entity, path, reason, raw)
                    VALUES (1, 'items', 'item', '$[0].id', 'key field missing', '{}')
                    """)
        }
        try old.close()

        let store = Store(try SQLiteStore(path: path))
        #expect(
            try await store.query("SELECT path, url, page FROM _rejects")
                == [["path": .text("$[0].id"), "url": .null, "page": .null]])
        #expect(
            try await store.rejects(feed: "items", run: nil, limit: 10).map(\.reason) == ["key field missing"])
    }

    @Test func cacheTimesStoredAsEpochSecondsBecomeISO8601AndKeepTheirAge() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        let old = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(old, upTo: "v5: tombstones")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO _http_cache(key, feed, url, status, headers, etag, last_modified, fetched_at, body)
                    VALUES ('k', 'items', 'https://example.com/items', 200, '{}', '"v1"', NULL, 1767225600.25, x'7b7d')
                    """)
        }
        try old.close()

        let store = Store(try SQLiteStore(path: path))
        #expect(
            try await store.query("SELECT fetched_at, typeof(fetched_at) AS type FROM _http_cache") == [
                ["fetched_at": .text("2026-01-01T00:00:00.250Z"), "type": .text("text")]
            ])
        let entry = try #require(try await store.cachedResponse(forKey: "k", includingBody: true))
        #expect(entry.fetchedAt == Date(timeIntervalSince1970: 1_767_225_600.25))
        #expect(entry.etag == "\"v1\"")
        #expect(entry.body == Data("{}".utf8))
    }

    @Test func cacheBodiesMoveToATableOfTheirOwnAndStillServeTheirEntries() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        let body = Data(String(repeating: "{\"id\":1}", count: 100).utf8)
        let compressed = try #require(BodyCompression.compress(body))
        let old = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(old, upTo: "v8: worker schedule")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO _http_cache(key, feed, url, status, headers, etag, last_modified, fetched_at, body, body_size)
                    VALUES ('k', 'items', 'https://example.com/items', 200, '{"etag":"\\"v1\\""}', '"v1"', NULL,
                        '2026-01-01T00:00:00.250Z', ?, ?)
                    """, arguments: [compressed, body.count])
        }
        try old.close()

        let store = Store(try SQLiteStore(path: path))
        let columns = try await store.query("SELECT name FROM pragma_table_info('_http_cache') ORDER BY cid").map {
            $0["name"]
        }
        #expect(!columns.contains(.text("body")) && !columns.contains(.text("body_size")))
        #expect(
            try await store.query("SELECT body_size FROM _http_cache_body WHERE key = 'k'") == [
                ["body_size": .integer(Int64(body.count))]
            ])
        let entry = try #require(try await store.cachedResponse(forKey: "k", includingBody: true))
        #expect(entry.body == body)
        #expect(entry.headers == ["etag": "\"v1\""])
        #expect(try await store.cachedResponses(feed: "items").keys.sorted() == ["k"])
    }

    @Test func anEntityTableOfAnOlderStoreGainsItsPrimaryKeyAndKeepsItsRows() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        // An entity table as stores made it before tables had a primary key.
        let old = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(old, upTo: "v6: cache times in ISO 8601")
        try await old.write { db in
            try EntityTable.ensure(
                ItemsAdapter.schema(named: "item"), keyed: false, on: SQLiteSQLConnection(db: db, location: path))
            try db.execute(
                sql: """
                    INSERT INTO item(_feed, _key, _hash, _run, _first_seen, _last_seen, id, value)
                    VALUES ('items', 'a', 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'a', 1);
                    """)
        }
        #expect(
            try await old.read {
                try StoredTable.read("item", on: SQLiteSQLConnection(db: $0, location: path))?.primaryKey == [
                    "_feed", "_key",
                ]
            } == false)
        try old.close()

        try Data(itemsJSON([("a", 1), ("b", 2)])).write(to: directory.appendingPathComponent("items.json"))
        try Data("store: feeds.sqlite\nfeeds:\n  - { name: items, adapter: items, url: items.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        let config = try ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]))
            .load(path: directory.appendingPathComponent("feeds.yaml").path)
        let report = try await Engine.open(config).run()
        #expect(report.feeds.first?.counts.updated == 1, "the old row, found by its key")
        #expect(report.feeds.first?.counts.inserted == 1)
        let driver = try SQLiteStore(path: path)
        #expect(
            try await driver.read {
                try StoredTable.read("item", on: SQLiteSQLConnection(db: $0, location: path))?.primaryKey == [
                    "_feed", "_key",
                ]
            })
        #expect(try await Store(driver).query("SELECT count(*) AS n FROM item") == [["n": .integer(2)]])
    }
}
