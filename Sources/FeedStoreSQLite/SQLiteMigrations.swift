import FeedKit
import FeedStore
import GRDB

/// The versions of the store's system tables, applied in order when a store is opened.
///
/// A new store is created from ``SystemTables`` at once; a store made by an older Feedwork
/// opens cleanly: the migrations it lacks run once, in one transaction. Never edit, rename or
/// reorder a released migration (their identifiers are in the stores in use); add a new one, and
/// change ``SystemTables`` to the shape it leaves.
enum SQLiteMigrations {
    /// Brings the store `writer` opens up to date. An empty file becomes a store of the latest
    /// version in one transaction: the tables of ``SystemTables``, and every migration recorded
    /// as applied in GRDB's `grdb_migrations`, as if they had run. Any other file gets the
    /// migrations it lacks.
    static func migrate(_ writer: some DatabaseWriter) throws {
        let migrator = self.migrator
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return .commit }
                for statement in SystemTables.all.flatMap({ $0.createStatements(in: SQLiteDialect()) }) {
                    try db.execute(sql: statement)
                }
                // The table GRDB's migrator keeps, as it creates it.
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                for identifier in migrator.migrations {
                    try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES (?)", arguments: [identifier])
                }
                return .commit
            }
        }
        try migrator.migrate(writer)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: runs, rejects, cache, state, entities") { db in
            try db.execute(
                sql: """
                    CREATE TABLE _runs (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        feed TEXT NOT NULL,
                        adapter TEXT NOT NULL,
                        started_at TEXT NOT NULL,
                        finished_at TEXT,
                        status TEXT NOT NULL,
                        requests INTEGER NOT NULL DEFAULT 0,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        bytes INTEGER NOT NULL DEFAULT 0,
                        inserted INTEGER NOT NULL DEFAULT 0,
                        updated INTEGER NOT NULL DEFAULT 0,
                        unchanged INTEGER NOT NULL DEFAULT 0,
                        deleted INTEGER NOT NULL DEFAULT 0,
                        rejected INTEGER NOT NULL DEFAULT 0,
                        error TEXT,
                        notes TEXT
                    );
                    CREATE INDEX _runs_feed ON _runs(feed, id);
                    CREATE TABLE _rejects (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        run INTEGER NOT NULL,
                        feed TEXT NOT NULL,
                        entity TEXT NOT NULL,
                        path TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        raw TEXT NOT NULL
                    );
                    CREATE INDEX _rejects_feed ON _rejects(feed, run);
                    CREATE TABLE _http_cache (
                        key TEXT PRIMARY KEY,
                        feed TEXT NOT NULL,
                        url TEXT NOT NULL,
                        status INTEGER NOT NULL,
                        headers TEXT NOT NULL,
                        etag TEXT,
                        last_modified TEXT,
                        fetched_at REAL NOT NULL,
                        body BLOB NOT NULL
                    );
                    CREATE TABLE _state (
                        feed TEXT NOT NULL,
                        key TEXT NOT NULL,
                        value TEXT NOT NULL,
                        PRIMARY KEY (feed, key)
                    );
                    CREATE TABLE _entities (
                        name TEXT PRIMARY KEY,
                        schema TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: outbox") { db in
            try db.execute(
                sql: """
                    CREATE TABLE _outbox (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        feed TEXT NOT NULL,
                        run INTEGER NOT NULL,
                        url TEXT NOT NULL,
                        created_at TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        delivered_at TEXT
                    );
                    CREATE INDEX _outbox_pending ON _outbox(feed, delivered_at);
                    """)
        }
        migrator.registerMigration("v3: compressed cache bodies") { db in
            // When set, `body` holds the zlib-compressed body of `body_size` bytes.
            try db.execute(sql: "ALTER TABLE _http_cache ADD COLUMN body_size INTEGER")
        }
        migrator.registerMigration("v4: where rejects came from") { db in
            // The (redacted) URL of the response a reject was read from, and its page (1-based);
            // null for rejects stored before, or whose adapter did not say.
            try db.execute(
                sql: """
                    ALTER TABLE _rejects ADD COLUMN url TEXT;
                    ALTER TABLE _rejects ADD COLUMN page INTEGER;
                    """)
        }
        migrator.registerMigration("v5: tombstones") { db in
            // One row per row a `replace` pass deleted, written in the pass's transaction:
            // `key_values` is a JSON array of the row's key columns, in key order; `deleted_at` is
            // the start of the pass that deleted it.
            try db.execute(
                sql: """
                    CREATE TABLE _tombstones (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        feed TEXT NOT NULL,
                        entity TEXT NOT NULL,
                        key TEXT NOT NULL,
                        key_values TEXT NOT NULL,
                        run INTEGER NOT NULL,
                        deleted_at TEXT NOT NULL
                    );
                    CREATE INDEX _tombstones_entity ON _tombstones(entity, run);
                    CREATE INDEX _tombstones_key ON _tombstones(entity, feed, key);
                    """)
        }
        migrator.registerMigration("v6: cache times in ISO 8601") { db in
            // `fetched_at` was epoch seconds as a real number; every other time in the store is
            // ISO 8601 UTC text, so it becomes the same (millisecond precision).
            try db.execute(
                sql: """
                    CREATE TABLE _http_cache_v6 (
                        key TEXT PRIMARY KEY,
                        feed TEXT NOT NULL,
                        url TEXT NOT NULL,
                        status INTEGER NOT NULL,
                        headers TEXT NOT NULL,
                        etag TEXT,
                        last_modified TEXT,
                        fetched_at TEXT NOT NULL,
                        body BLOB NOT NULL,
                        body_size INTEGER
                    );
                    INSERT INTO _http_cache_v6
                        SELECT key, feed, url, status, headers, etag, last_modified,
                            strftime('%Y-%m-%dT%H:%M:%fZ', fetched_at, 'unixepoch'), body, body_size
                        FROM _http_cache;
                    DROP TABLE _http_cache;
                    ALTER TABLE _http_cache_v6 RENAME TO _http_cache;
                    """)
        }
        migrator.registerMigration("v7: entities that keep history") { db in
            // 1 once a feed wrote the entity in `append` mode: its rows repeat keys, so its table
            // has no primary key (see `SQLiteEntityTable+Key.swift`).
            try db.execute(sql: "ALTER TABLE _entities ADD COLUMN history INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v8: worker schedule") { db in
            // One row per scheduled feed (see `ScheduleBoard`): when it is next due, and the
            // worker holding it until `lease_until`. Times are ISO 8601 UTC text.
            try db.execute(
                sql: """
                    CREATE TABLE _schedule (
                        feed TEXT PRIMARY KEY,
                        schedule TEXT NOT NULL,
                        next_run_at TEXT NOT NULL,
                        claimed_by TEXT,
                        lease_until TEXT
                    );
                    """)
        }
        migrator.registerMigration("v9: cache bodies apart, entries by feed") { db in
            // SQLite rewrites a whole row on UPDATE, so refreshing the validators of a page the
            // server confirmed unchanged rewrote its body too (16 KB a page of W1). Bodies move
            // to a table of their own; a pass reads its feed's entries in one query
            // (`PassResponseCache`).
            // The entries are copied into a new table rather than losing two columns to
            // `ALTER TABLE ... DROP COLUMN`, which SQLite has only since 3.35.
            try db.execute(
                sql: """
                    CREATE TABLE _http_cache_body (key TEXT PRIMARY KEY, body BLOB NOT NULL, body_size INTEGER);
                    INSERT INTO _http_cache_body(key, body, body_size) SELECT key, body, body_size FROM _http_cache;
                    CREATE TABLE _http_cache_v9 (
                        key TEXT PRIMARY KEY,
                        feed TEXT NOT NULL,
                        url TEXT NOT NULL,
                        status INTEGER NOT NULL,
                        headers TEXT NOT NULL,
                        etag TEXT,
                        last_modified TEXT,
                        fetched_at TEXT NOT NULL
                    );
                    INSERT INTO _http_cache_v9
                        SELECT key, feed, url, status, headers, etag, last_modified, fetched_at FROM _http_cache;
                    DROP TABLE _http_cache;
                    ALTER TABLE _http_cache_v9 RENAME TO _http_cache;
                    CREATE INDEX _http_cache_feed ON _http_cache(feed);
                    """)
        }
        migrator.registerMigration("v10: retired columns of entities") { db in
            // The columns an entity's fields no longer declare, with their types and when
            // (``RetiredColumn``); NULL when none.
            try db.execute(sql: "ALTER TABLE _entities ADD COLUMN retired TEXT")
        }
        migrator.registerMigration("v11: mirrored media") { db in
            // Images named by the rows' media columns, once each by content (see `MediaMirror`).
            try db.execute(
                sql: """
                    CREATE TABLE _media (
                        hash TEXT PRIMARY KEY,
                        type TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        width INTEGER,
                        height INTEGER,
                        bytes BLOB NOT NULL,
                        fetched_at TEXT NOT NULL
                    );
                    CREATE TABLE _media_urls (
                        feed TEXT NOT NULL,
                        url TEXT NOT NULL,
                        hash TEXT,
                        etag TEXT,
                        last_modified TEXT,
                        checked_at TEXT,
                        failures INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        retry_at TEXT,
                        PRIMARY KEY (feed, url)
                    );
                    CREATE INDEX _media_urls_hash ON _media_urls(hash);
                    """)
        }
        migrator.registerMigration("v12: the adapter module of each run") { db in
            try db.execute(sql: "ALTER TABLE _runs ADD COLUMN adapter_module TEXT")
        }
        return migrator
    }
}
