/// The system tables of a store, described once for every driver: the runs, rejects, response
/// cache, state, entities, outbox, tombstones and worker schedule.
///
/// A new store is created from this description; a store made by an older Feedwork reaches it
/// through its driver's migrations (`SQLiteMigrations`, `PostgresMigrations`), which are
/// history and never change. To change a system table, change it here and add a migration to
/// each driver that brings an existing store to the same shape:
/// each driver's `<Driver>SystemTablesTests` compares a new and a migrated store with this
/// description.
package enum SystemTables {
    private static func text(_ name: String, nullable: Bool = false) -> SystemColumn {
        SystemColumn(name: name, kind: .text, nullable: nullable)
    }

    private static func integer(_ name: String, nullable: Bool = false) -> SystemColumn {
        SystemColumn(name: name, kind: .integer, nullable: nullable)
    }

    private static func count(_ name: String) -> SystemColumn {
        SystemColumn(name: name, kind: .integer, defaultsToZero: true)
    }

    private static func time(_ name: String, nullable: Bool = false) -> SystemColumn {
        SystemColumn(name: name, kind: .time, nullable: nullable)
    }

    private static let id = SystemColumn(name: "id", kind: .serial)

    /// One row per pass: how it went and what it wrote; `adapter_module` is the module the
    /// adapter came from (`FruitFeed`, or a package's own), so that a binary without it can say
    /// which one it lacks.
    package static let runs = SystemTable(
        name: "_runs",
        columns: [
            id, text("feed"), text("adapter"), time("started_at"), time("finished_at", nullable: true), text("status"),
            count("requests"), count("attempts"), count("bytes"), count("inserted"), count("updated"),
            count("unchanged"), count("deleted"), count("rejected"), text("error", nullable: true),
            text("notes", nullable: true), text("adapter_module", nullable: true),
        ],
        primaryKey: ["id"], indexes: [SystemIndex(name: "_runs_feed", columns: ["feed", "id"])])

    /// Records a pass could not store, and why; `url` and `page` say where they came from.
    package static let rejects = SystemTable(
        name: "_rejects",
        columns: [
            id, integer("run"), text("feed"), text("entity"), text("path"), text("reason"), text("raw"),
            text("url", nullable: true), integer("page", nullable: true),
        ],
        primaryKey: ["id"], indexes: [SystemIndex(name: "_rejects_feed", columns: ["feed", "run"])])

    /// The cached responses' entries (their bodies are in ``cacheBodies``).
    package static let cache = SystemTable(
        name: "_http_cache",
        columns: [
            text("key"), text("feed"), text("url"), integer("status"),
            SystemColumn(name: "headers", kind: .json), text("etag", nullable: true),
            text("last_modified", nullable: true), time("fetched_at"),
        ],
        primaryKey: ["key"], indexes: [SystemIndex(name: "_http_cache_feed", columns: ["feed"])])

    /// The cached responses' bodies; when `body_size` is set, `body` holds them zlib-compressed.
    package static let cacheBodies = SystemTable(
        name: "_http_cache_body",
        columns: [text("key"), SystemColumn(name: "body", kind: .bytes), integer("body_size", nullable: true)],
        primaryKey: ["key"])

    /// What feeds keep between passes (cursors, bookmarks), by feed and key.
    package static let state = SystemTable(
        name: "_state", columns: [text("feed"), text("key"), text("value")], primaryKey: ["feed", "key"])

    /// The entities' schemas, whether a feed keeps an entity's history, and the columns its
    /// fields no longer declare (``RetiredColumn``: a JSON array, NULL when none).
    package static let entities = SystemTable(
        name: "_entities",
        columns: [
            text("name"), SystemColumn(name: "schema", kind: .json),
            SystemColumn(name: "history", kind: .boolean, defaultsToZero: true),
            SystemColumn(name: "retired", kind: .json, nullable: true),
        ],
        primaryKey: ["name"])

    /// The URLs a pass notifies once it committed, until they are delivered.
    package static let outbox = SystemTable(
        name: "_outbox",
        columns: [
            id, text("feed"), integer("run"), text("url"), time("created_at"), count("attempts"),
            text("last_error", nullable: true), time("delivered_at", nullable: true),
        ],
        primaryKey: ["id"], indexes: [SystemIndex(name: "_outbox_pending", columns: ["feed", "delivered_at"])])

    /// One row per row a `replace` pass deleted: its key values (a JSON array, in key order).
    package static let tombstones = SystemTable(
        name: "_tombstones",
        columns: [
            id, text("feed"), text("entity"), text("key"), SystemColumn(name: "key_values", kind: .json),
            integer("run"), time("deleted_at"),
        ],
        primaryKey: ["id"],
        indexes: [
            SystemIndex(name: "_tombstones_entity", columns: ["entity", "run"]),
            SystemIndex(name: "_tombstones_key", columns: ["entity", "feed", "key"]),
        ])

    /// The worker's schedule: when each feed is next due, and the worker holding it. A claim
    /// reads the due feeds in due order and the held ones apart
    /// (``Store/nextClaimable(excluding:)``), by index: with 10,000 feeds, reading the
    /// whole board at each claim was most of the server's work.
    package static let schedule = SystemTable(
        name: "_schedule",
        columns: [
            text("feed"), text("schedule"), time("next_run_at"), text("claimed_by", nullable: true),
            time("lease_until", nullable: true),
        ],
        primaryKey: ["feed"], indexes: scheduleIndexes)

    /// The indexes of ``schedule`` (added by SQLite's v13 and PostgreSQL's v8).
    package static let scheduleIndexes = [
        SystemIndex(name: "_schedule_due", columns: ["next_run_at", "feed"]),
        SystemIndex(name: "_schedule_held", columns: ["lease_until"], condition: "claimed_by IS NOT NULL"),
    ]

    /// Mirrored images, once each by content: `hash` is the SHA-256 of `bytes` (64 hex digits),
    /// `type` the media type their signature shows, `width` and `height` when the header says.
    package static let media = SystemTable(
        name: "_media",
        columns: [
            text("hash"), text("type"), integer("size"), integer("width", nullable: true),
            integer("height", nullable: true), SystemColumn(name: "bytes", kind: .bytes), time("fetched_at"),
        ],
        primaryKey: ["hash"])

    /// Each image URL a feed's rows name (in a media column): the mirrored bytes' `hash` once
    /// fetched, the validators for a conditional request, and the failures since the last success
    /// with when to try again.
    package static let mediaURLs = SystemTable(
        name: "_media_urls",
        columns: [
            text("feed"), text("url"), text("hash", nullable: true), text("etag", nullable: true),
            text("last_modified", nullable: true), time("checked_at", nullable: true), count("failures"),
            text("last_error", nullable: true), time("retry_at", nullable: true),
        ],
        primaryKey: ["feed", "url"], indexes: [SystemIndex(name: "_media_urls_hash", columns: ["hash"])])

    /// Every system table, in the order a new store creates them.
    package static let all = [
        runs, rejects, cache, cacheBodies, state, entities, outbox, tombstones, schedule, media, mediaURLs,
    ]
}
