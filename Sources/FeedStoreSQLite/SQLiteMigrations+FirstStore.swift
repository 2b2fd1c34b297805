import GRDB

extension SQLiteMigrations {
    /// The first store: runs, rejects, the response cache, state and entities (v1), the outbox (v2),
    /// compressed cache bodies (v3) and where rejects came from (v4).
    static func registerFirstStore(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1: runs, rejects, cache, state, entities") { db in
            try db.execute(sql: firstStoreTables)
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
    }

    /// The system tables of the first store (v1), as it created them.
    static let firstStoreTables = """
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
        """
}
