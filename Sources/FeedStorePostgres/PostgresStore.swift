import FeedKit
import FeedStore
import Foundation

/// The PostgreSQL store: the same tables as the SQLite store (``SQLiteStore``), in one schema
/// of a database that many machines share.
///
/// Statements block, so one-shot writes (run records, failed runs) run on the store's writer
/// thread (``StoreThread``) on the write connection, and each feed pass on a thread of its own
/// and a connection from the store's pool (``passTransaction(feed:run:stamp:bindings:)``);
/// reads take turns on a connection of their own, on the reader thread, so no libpq call blocks
/// Swift's cooperative pool.
/// The system tables are created and migrated when the store opens (``PostgresMigrations``).
package final class PostgresStore: Sendable {
    /// The server and database, without the password.
    package let location: String
    /// The URL connections are made with, password included: never shown.
    let url: String
    /// The schema holding Feedwork's tables (`feedwork` by default).
    let schema: String
    let writer = StoreThread(label: "feedwork.postgres.writer")
    /// The thread every read runs on, with the read connection (``read(_:)``).
    let reader = StoreThread(label: "feedwork.postgres.reader")
    let writeSession: PostgresSession
    let readSession: PostgresSession
    /// The idle connections of passes and leases, for the next ones (``PostgresConnectionPool``).
    let pool: PostgresConnectionPool
    /// How long the server lets a session that holds a feed (its lease, its pass's open
    /// transaction) stay silent before it ends it (``PostgresLiveness``).
    let silence: Duration

    /// Connects to `url`, creating `schema` and its tables when missing and migrating them;
    /// with `migrating` false (the reading commands), it only checks that the store is there
    /// and up to date, so a role that may only read the schema can use it.
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses a statement,
    ///   or (not migrating) the schema holds no store of this Feedwork's version, or `schema` is
    ///   PostgreSQL's own (``PostgresURL/reservedSchemaProblem(_:)``).
    ///
    /// - Parameter silence: how long a session holding a feed may go silent before the server
    ///   ends it, and with it the feed's lease and pass (``PostgresLiveness``).
    package init(
        url: String, schema: String = "feedwork", migrating: Bool = true,
        silence: Duration = PostgresLiveness.defaultSilence
    ) throws(PostgresError) {
        self.schema = schema
        self.url = url
        self.silence = silence
        pool = PostgresConnectionPool(url: url)
        if let reserved = PostgresURL.reservedSchemaProblem(schema) {
            throw PostgresError(location: PostgresURL.withoutPassword(url), message: reserved)
        }
        let first = try PostgresConnection(url: url)
        location = first.location
        guard migrating else {
            // A reading store holds one connection: the reading commands never write.
            try PostgresMigrations.checkCurrent(first, schema: schema)
            try Self.prepareReading(first, schema: schema)
            readSession = PostgresSession(first, url: url) { connection throws(PostgresError) in
                try Self.prepareReading(connection, schema: schema)
            }
            writeSession = readSession
            return
        }
        // The read connection and the first pass's two open while the tables are made.
        pool.openInAdvance(3, on: writer)
        try PostgresMigrations.migrate(first, schema: schema)
        pool.waitForOpening()
        let read = try pool.take { connection throws(PostgresError) in
            try Self.prepareReading(connection, schema: schema)
        }
        // `migrate` left the write connection's search_path on the schema.
        writeSession = PostgresSession(first, url: url) { connection throws(PostgresError) in
            try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
        }
        readSession = PostgresSession(read, url: url) { connection throws(PostgresError) in
            try Self.prepareReading(connection, schema: schema)
        }
    }

    /// Points a read connection at `schema`, with its session in UTC, so that timestamps a
    /// query returns as text are UTC (``StoreSQL``); the store's own reads format times
    /// explicitly (``PostgresSQL/isoText(_:)``).
    private static func prepareReading(_ connection: PostgresConnection, schema: String) throws(PostgresError) {
        try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
        try connection.execute("SET TIME ZONE 'UTC'")
    }

    /// Whether `schema` on the server at `url` holds a Feedwork store (of any version).
    package static func exists(url: String, schema: String) throws(PostgresError) -> Bool {
        try PostgresMigrations.storedVersion(try PostgresConnection(url: url), schema: schema) != nil
    }

    /// Runs `body` on the read connection, on the reader thread, and waits without blocking the
    /// caller's thread; errors come out as ``PostgresError``.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let session = readSession
        return try await reader.perform { try session.with(body) }
    }

    /// Runs `body` in its own transaction on the writer thread, and waits without blocking the
    /// caller's thread.
    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let session = writeSession
        return try await writer.perform { try session.transaction(body) }
    }
}

/// What the jobs written once for every driver need of the PostgreSQL store (``StoreDriver``):
/// its connections, the feeds' leases, each pass on a connection and thread of its own, and the
/// hooks that keep the runs of other processes' passes apart.
extension PostgresStore: StoreDriver {
    package var dialect: any SQLDialect { PostgresDialect() }

    /// Workers on many machines share the store.
    package var capabilities: StoreCapabilities { StoreCapabilities(sharedByMachines: true) }

    /// Never: a pass that renews a token commits it on a write connection of the store's while
    /// its own transaction goes on.
    package var credentialJournal: CredentialJournal? { nil }

    /// Many processes share one database, so only runs whose feed no process holds (its lease,
    /// ``PostgresFeedLease``, is free) are marked: a pass under way elsewhere stays `running`.
    package func interruptAbandonedRuns(of feeds: [String]?, in connection: any SQLConnection) throws {
        let names = SQLValue(feeds?.jsonArrayText)
        try connection.execute(
            """
            UPDATE _runs SET status = 'interrupted'
            WHERE status = 'running'
                AND (CAST(? AS jsonb) IS NULL OR feed IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb))))
                AND NOT \(PostgresFeedLease.heldSQL(schema: "CAST(? AS text)", feed: "_runs.feed"))
            """, [names, names, .text(schema)])
    }

    /// After a commit of the feed's pass under way, or before it: never beside it
    /// (``PostgresRunFence``). The new run's pass holds the feed's lease, so a run of the feed
    /// still `running` lost its own (its process died, or went silent and its session was
    /// ended): it is interrupted before this one starts, and can no longer commit.
    package func beginRun(of feed: String, in connection: any SQLConnection) throws {
        try connection.execute(PostgresRunFence.lockSQL, [.text(feed)])
        try connection.execute(
            "UPDATE _runs SET status = 'interrupted' WHERE feed = ? AND status = 'running'", [.text(feed)])
    }

    package func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await read { try body(PostgresSQLConnection(connection: $0)) }
    }

    package func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await write { try body(PostgresSQLConnection(connection: $0)) }
    }

    /// Runs `body` in one read-only `REPEATABLE READ` transaction, on the reader thread: every
    /// statement sees the same data.
    package func snapshotSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T)
        async throws -> T
    {
        try await read { connection in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { _ = try? connection.execute("COMMIT") }
            return try body(PostgresSQLConnection(connection: connection))
        }
    }

    /// Nothing: the connections end when the store goes away, and the server keeps nothing
    /// that closing them earlier would spare the next process.
    package func close() async throws {}

    /// None: the store is a schema on a server.
    package var file: String? { nil }
    /// Never: processes share a server's store, each pass leasing its feed.
    package var holdsExclusiveLock: Bool { false }

    package func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject? {
        try await PostgresFeedLease.take(
            pool: pool, schema: schema, feed: feed, wait: .milliseconds(wait.milliseconds), silence: silence)
    }

    /// Unlike SQLite's, which allows one writer, each pass writes on a connection and thread of
    /// its own: passes of different feeds in one process write at the same time, as they do from
    /// different processes. The connection is taken from the store's pool
    /// (``PostgresConnectionPool``) when the pass's first job arrives, and given back once the
    /// pass committed or rolled back without an error. The tables of `bindings`
    /// are prepared first in the pass's transaction (PostgreSQL's DDL is transactional), so a
    /// pass that fails leaves no table, column or view behind; a pass that changes an entity's
    /// tables holds their locks, and the entity's, until it commits.
    package func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction
    {
        let (pool, schema, location, silence) = (pool, schema, location, silence)
        return FeedTransaction(
            writer: StoreThread(label: "feedwork.postgres.pass"), location: location, holdsStoreWriter: false,
            keepAlive: PostgresLiveness.beat(for: silence)
        ) { body in
            let connection = try pool.take { connection throws(PostgresError) in
                try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
            }
            try connection.execute("BEGIN")
            // A pass whose process went silent (paused, cut off) is rolled back by the server,
            // and lets go of the rows it locked, instead of holding the feed until it wakes.
            try connection.execute(
                "SET LOCAL idle_in_transaction_session_timeout = \(PostgresLiveness.milliseconds(silence))")
            let database = PassDatabase(
                connection: PostgresSQLConnection(connection: connection),
                writer: { binding in
                    PostgresEntityWriter(
                        schema: binding.schema, mode: binding.mode, feed: feed, run: run, stamp: stamp,
                        connection: connection)
                },
                prepare: { try Self.prepare($0, in: connection) },
                foreignKeysBroken: { try PostgresSQLConnection(connection: connection).foreignKeysBroken() },
                checkRunMayCommit: { try PostgresRunFence.check(run: run, feed: feed, in: connection) },
                holdsWrites: true)
            let scope = PassWriter(
                database: database, location: location, feed: feed, run: run, stamp: stamp, bindings: bindings)
            defer { scope.close() }
            do {
                try Self.prepare(bindings, in: connection)
                if try body(scope) {
                    try scope.sendHeld()
                    try connection.execute("COMMIT")
                } else {
                    try connection.execute("ROLLBACK")
                }
            } catch {
                // Not given back: the error may be the connection's own.
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
            pool.giveBack(connection)
        }
    }

    /// Prepares the entities of `bindings` on `connection` (``SchemaPreparation``).
    static func prepare(_ bindings: [EntityBinding], in connection: PostgresConnection) throws {
        for binding in bindings {
            if let problem = PostgresNames.problems(binding.schema).first {
                throw StoreError(path: connection.location, message: problem + "; nothing was changed")
            }
        }
        // Passes in other transactions (other processes, or adapters declaring entities during
        // their passes) would race to create the same tables and types, and all but one fail on
        // PostgreSQL's catalog: unless every entity is recorded as it is wanted, the entities'
        // locks are taken (in the order of their names, so two passes never wait for each
        // other's), and what is there is read again once they are held. A pass whose entities
        // are in place runs no statement at all: even an upsert that changes nothing locks its
        // `_entities` row until the pass commits, and two passes writing one entity then
        // deadlocked (one waiting for that row, the other for the table the first had locked).
        let sql = PostgresSQLConnection(connection: connection)
        if try SchemaPreparation.isCurrent(bindings, on: sql) { return }
        for name in Set(bindings.map { $0.schema.name.lowercased() }).sorted() {
            try sql.lockChanges(of: name)
        }
        try SchemaPreparation.prepare(bindings, on: sql, dialect: PostgresDialect())
    }
}
