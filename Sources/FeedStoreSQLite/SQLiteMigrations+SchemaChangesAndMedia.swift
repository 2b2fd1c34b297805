import GRDB

extension SQLiteMigrations {
    /// Schema changes and media: the retired columns of entities (v10) and mirrored media (v11).
    static func registerSchemaChangesAndMedia(in migrator: inout DatabaseMigrator) {
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
    }
}
