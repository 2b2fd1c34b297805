import GRDB

extension SQLiteMigrations {
    /// Workers: the worker's schedule (v8) and cache bodies apart from their entries, which a pass
    /// reads by feed (v9).
    static func registerWorkers(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8: worker schedule") { db in
            // One row per scheduled feed (see `StoreSchedule.swift`): when it is next due, and the
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
    }
}
