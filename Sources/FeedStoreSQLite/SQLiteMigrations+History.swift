import GRDB

extension SQLiteMigrations {
    /// History: the tombstones of deleted rows (v5), cache times in ISO 8601 (v6) and entities that
    /// keep history (v7).
    static func registerHistory(in migrator: inout DatabaseMigrator) {
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
            // has no primary key (see `SQLiteDialect+EntityTables.swift`).
            try db.execute(sql: "ALTER TABLE _entities ADD COLUMN history INTEGER NOT NULL DEFAULT 0")
        }
    }
}
