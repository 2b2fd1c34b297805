import FeedStore

/// The system tables of a PostgreSQL store, created and brought up to date in order.
///
/// A new store is created from ``SystemTables`` at once, every step recorded; a store made by
/// an older Feedwork gets the steps it lacks. Never edit a released step; add a new one, and
/// change ``SystemTables`` to the shape it leaves.
///
/// Each step runs once, in the transaction that records it in `_migrations`, while a
/// transaction-level advisory lock keeps two processes opening a new store from racing. The
/// tables mirror the SQLite store's, with the types a SQL user expects: times are
/// `timestamptz`, counts `bigint`, cached bodies `bytea`, schemas and key values `jsonb`.
enum PostgresMigrations {
    struct Step {
        var version: Int
        var name: String
        var sql: String
    }

    static let steps: [Step] = [
        Step(
            version: 1, name: "runs, rejects, cache, state, entities, outbox, tombstones",
            sql: """
                CREATE TABLE _runs (
                    id bigserial PRIMARY KEY,
                    feed text NOT NULL,
                    adapter text NOT NULL,
                    started_at timestamptz NOT NULL,
                    finished_at timestamptz,
                    status text NOT NULL,
                    requests bigint NOT NULL DEFAULT 0,
                    attempts bigint NOT NULL DEFAULT 0,
                    bytes bigint NOT NULL DEFAULT 0,
                    inserted bigint NOT NULL DEFAULT 0,
                    updated bigint NOT NULL DEFAULT 0,
                    unchanged bigint NOT NULL DEFAULT 0,
                    deleted bigint NOT NULL DEFAULT 0,
                    rejected bigint NOT NULL DEFAULT 0,
                    error text,
                    notes text
                );
                CREATE INDEX _runs_feed ON _runs(feed, id);
                CREATE TABLE _rejects (
                    id bigserial PRIMARY KEY,
                    run bigint NOT NULL,
                    feed text NOT NULL,
                    entity text NOT NULL,
                    path text NOT NULL,
                    reason text NOT NULL,
                    raw text NOT NULL,
                    url text,
                    page bigint
                );
                CREATE INDEX _rejects_feed ON _rejects(feed, run);
                CREATE TABLE _http_cache (
                    key text PRIMARY KEY,
                    feed text NOT NULL,
                    url text NOT NULL,
                    status bigint NOT NULL,
                    headers jsonb NOT NULL,
                    etag text,
                    last_modified text,
                    fetched_at timestamptz NOT NULL,
                    body bytea NOT NULL,
                    body_size bigint
                );
                CREATE TABLE _state (
                    feed text NOT NULL,
                    key text NOT NULL,
                    value text NOT NULL,
                    PRIMARY KEY (feed, key)
                );
                CREATE TABLE _entities (
                    name text PRIMARY KEY,
                    schema jsonb NOT NULL,
                    history boolean NOT NULL DEFAULT false
                );
                CREATE TABLE _outbox (
                    id bigserial PRIMARY KEY,
                    feed text NOT NULL,
                    run bigint NOT NULL,
                    url text NOT NULL,
                    created_at timestamptz NOT NULL,
                    attempts bigint NOT NULL DEFAULT 0,
                    last_error text,
                    delivered_at timestamptz
                );
                CREATE INDEX _outbox_pending ON _outbox(feed, delivered_at);
                CREATE TABLE _tombstones (
                    id bigserial PRIMARY KEY,
                    feed text NOT NULL,
                    entity text NOT NULL,
                    key text NOT NULL,
                    key_values jsonb NOT NULL,
                    run bigint NOT NULL,
                    deleted_at timestamptz NOT NULL
                );
                CREATE INDEX _tombstones_entity ON _tombstones(entity, run);
                CREATE INDEX _tombstones_key ON _tombstones(entity, feed, key);
                """),
        Step(
            version: 2, name: "entity tables leave room on their pages for rows a pass updates",
            sql: """
                DO $$
                DECLARE entity record;
                BEGIN
                    FOR entity IN SELECT name FROM _entities LOOP
                        IF to_regclass(quote_ident(entity.name)) IS NOT NULL THEN
                            EXECUTE format('ALTER TABLE %I SET (\(PostgresDialect.entityStorage))', entity.name);
                        END IF;
                    END LOOP;
                END $$;
                """),
        Step(
            version: 3, name: "worker schedule",
            sql: """
                CREATE TABLE _schedule (
                    feed text PRIMARY KEY,
                    schedule text NOT NULL,
                    next_run_at timestamptz NOT NULL,
                    claimed_by text,
                    lease_until timestamptz
                );
                """),
        Step(
            version: 4, name: "cache bodies apart, entries by feed",
            sql: """
                CREATE TABLE _http_cache_body (key text PRIMARY KEY, body bytea NOT NULL, body_size bigint);
                INSERT INTO _http_cache_body(key, body, body_size) SELECT key, body, body_size FROM _http_cache;
                ALTER TABLE _http_cache DROP COLUMN body, DROP COLUMN body_size;
                CREATE INDEX _http_cache_feed ON _http_cache(feed);
                """),
        Step(
            version: 5, name: "retired columns of entities",
            sql: "ALTER TABLE _entities ADD COLUMN retired jsonb"),
        Step(
            version: 6, name: "mirrored media",
            sql: """
                CREATE TABLE _media (
                    hash text PRIMARY KEY,
                    type text NOT NULL,
                    size bigint NOT NULL,
                    width bigint,
                    height bigint,
                    bytes bytea NOT NULL,
                    fetched_at timestamptz NOT NULL
                );
                CREATE TABLE _media_urls (
                    feed text NOT NULL,
                    url text NOT NULL,
                    hash text,
                    etag text,
                    last_modified text,
                    checked_at timestamptz,
                    failures bigint NOT NULL DEFAULT 0,
                    last_error text,
                    retry_at timestamptz,
                    PRIMARY KEY (feed, url)
                );
                CREATE INDEX _media_urls_hash ON _media_urls(hash);
                """),
        Step(
            version: 7, name: "the adapter module of each run",
            sql: "ALTER TABLE _runs ADD COLUMN adapter_module text"),
        Step(
            version: 8, name: "the schedule's due and held feeds by index",
            sql: """
                CREATE INDEX _schedule_due ON _schedule(next_run_at, feed);
                CREATE INDEX _schedule_held ON _schedule(lease_until) WHERE claimed_by IS NOT NULL;
                """),
    ]

    /// The newest version.
    static var latest: Int { steps.map(\.version).max() ?? 0 }

    /// Creates `schema` when missing and applies the steps it lacks (up to `target`), then
    /// points the connection's `search_path` at it; refuses a store with steps this Feedwork
    /// does not know. A new store brought to the latest version is created from
    /// ``SystemTables`` (unless `creatingFromDescription` is false: then it goes through every
    /// step, as the stores in use did).
    static func migrate(
        _ connection: PostgresConnection, schema: String, upTo target: Int = latest,
        creatingFromDescription: Bool = true
    ) throws(PostgresError) {
        let quoted = PostgresSQL.identifier(schema)
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            // One opener at a time per schema; released with the transaction.
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", ["feedwork.migrate." + schema])
            try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quoted)")
            try connection.execute("SET LOCAL search_path TO \(quoted)")
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS _migrations (
                    version bigint PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let done = try version(connection)
            if done > latest {
                throw PostgresError(location: connection.location, message: StoreError.newerFeedworkMessage)
            }
            let created = done == 0 && target == latest && creatingFromDescription
            let applied = steps.filter { $0.version > done && $0.version <= target }
            if created {
                // One round trip for every table and index: a new store's first pass waits for it.
                try connection.execute(
                    SystemTables.all.flatMap { $0.createStatements(in: PostgresDialect()) }.joined(separator: ";\n"))
            } else {
                for step in applied { try connection.execute(step.sql) }
            }
            if !applied.isEmpty {
                try connection.execute(
                    "INSERT INTO _migrations(version, name) SELECT * FROM unnest($1::bigint[], $2::text[])",
                    [
                        PostgresSQL.arrayLiteral(applied.map { String($0.version) }),
                        PostgresSQL.arrayLiteral(applied.map(\.name)),
                    ])
            }
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
        try connection.execute("SET search_path TO \(quoted)")
    }

    /// Checks, without changing anything, that `schema` holds a store at the latest version.
    ///
    /// - Throws: ``PostgresError`` saying what to do: run a pass first (no store), run one to
    ///   update it (older), or use a newer Feedwork.
    static func checkCurrent(_ connection: PostgresConnection, schema: String) throws(PostgresError) {
        let version = try storedVersion(connection, schema: schema)
        let problem: String? =
            switch version {
            case nil: "no Feedwork store in schema '\(schema)' yet; run `feedwork run` first"
            case let version? where version < latest:
                "the store was written by an older Feedwork; run `feedwork run` once to update it"
            case let version? where version > latest: StoreError.newerFeedworkMessage
            default: nil
            }
        if let problem { throw PostgresError(location: connection.location, message: problem) }
    }

    /// The version of the store in `schema`; `nil` when there is none.
    static func storedVersion(_ connection: PostgresConnection, schema: String) throws(PostgresError) -> Int? {
        let table = PostgresSQL.identifier(schema) + "._migrations"
        let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [table])
        guard exists[0, 0] == "t" else { return nil }
        return Int(try connection.execute("SELECT coalesce(max(version), 0) FROM \(table)")[0, 0] ?? "0") ?? 0
    }

    /// The version of the store the connection's `search_path` points at (0 when new).
    static func version(_ connection: PostgresConnection) throws(PostgresError) -> Int {
        let exists = try connection.execute("SELECT to_regclass('_migrations') IS NOT NULL")
        guard exists[0, 0] == "t" else { return 0 }
        return Int(try connection.execute("SELECT coalesce(max(version), 0) FROM _migrations")[0, 0] ?? "0") ?? 0
    }
}
