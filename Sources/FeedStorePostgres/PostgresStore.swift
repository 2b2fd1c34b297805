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
        try PostgresMigrations.migrate(first, schema: schema)
        let read = try PostgresConnection(url: url)
        try Self.prepareReading(read, schema: schema)
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
