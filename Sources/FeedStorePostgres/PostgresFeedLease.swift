import FeedKit
import FeedStore
import Foundation

/// The lease that keeps two passes of one feed from running at once, whichever machines they
/// run on: a session-level advisory lock keyed by the store's schema and the feed's name,
/// held on a connection of its own for the length of the pass.
///
/// Passes of different feeds take different locks, so they run in parallel from any number of
/// processes. When a process dies, the server ends its session and the lock goes with it, so
/// the next run of the feed can take it (and knows the `running` row it left is interrupted).
///
/// The lease's connection comes from the store's pool and goes back to it once the lock is
/// released: a pass's lease no longer costs the server a new connection.
final class PostgresFeedLease {
    let feed: String
    private let session: Session
    private let pool: PostgresConnectionPool
    private var heartbeat: Heartbeat?

    /// The lease's connection, used by the pass's task and by the heartbeat's thread in turn,
    /// until it goes back to the pool: a beat that comes after that must not touch it, since
    /// the connection may be another user's by then.
    private final class Session: @unchecked Sendable {
        // `connection` and `released` are only used while `lock` is held.
        private let lock = NSLock()
        private let connection: PostgresConnection
        private var released = false
        init(_ connection: PostgresConnection) { self.connection = connection }

        var location: String { connection.location }

        func with<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body(connection)
        }

        /// Shows the server the session is alive; false once it broke (the lease is lost) or
        /// was released.
        func beat() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return !released && (try? connection.execute("SELECT 1")) != nil
        }

        /// Releases the feed's lock and gives the connection to `pool`, once; a connection whose
        /// locks could not be released is closed, which releases them too.
        func release(to pool: PostgresConnectionPool) {
            lock.lock()
            defer { lock.unlock() }
            guard !released else { return }
            released = true
            if (try? connection.execute(
                "SELECT pg_advisory_unlock_all(), set_config('idle_session_timeout', '0', false)")) != nil
            {
                pool.giveBack(connection)
            }
        }
    }

    private init(pool: PostgresConnectionPool, feed: String, silence: Duration) throws(PostgresError) {
        self.feed = feed
        self.pool = pool
        // No advisory lock of an earlier user is left on a pooled connection (its lease
        // released them all before giving it back); asking again checks the connection. The
        // server ends the session, and so the lease, once it is silent for `silence`: a
        // paused or cut-off process does not keep the feed from the other workers.
        let milliseconds = PostgresLiveness.milliseconds(silence)
        session = Session(
            try pool.take { connection throws(PostgresError) in
                try connection.execute(
                    "SELECT pg_advisory_unlock_all(), set_config('idle_session_timeout', '\(milliseconds)', false)")
            })
    }

    /// Takes the lease of `feed`, trying again every 100 ms (without holding a thread) until
    /// `wait` runs out; its session then shows the server it is alive every third of `silence`
    /// until the lease is released.
    ///
    /// - Throws: ``PostgresFeedLease/Busy`` when another pass holds it all that time;
    ///   ``PostgresError`` when the server fails.
    static func take(
        pool: PostgresConnectionPool, schema: String, feed: String, wait: Duration,
        silence: Duration = PostgresLiveness.defaultSilence
    ) async throws -> PostgresFeedLease {
        let lease = try PostgresFeedLease(pool: pool, feed: feed, silence: silence)
        let deadline = ContinuousClock.now + wait
        while try lease.session.with({ connection throws(PostgresError) in
            try connection.execute(
                "SELECT pg_try_advisory_lock(\(keysSQL(schema: "$1", feed: "$2")))", [schema, feed]
            ).first(column: 0)
        }) != "t" {
            guard ContinuousClock.now < deadline else {
                throw Busy(feed: feed, location: lease.session.location, waited: wait)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let session = lease.session
        lease.heartbeat = Heartbeat(label: "feedwork.postgres.lease", every: PostgresLiveness.beat(for: silence)) {
            session.beat()
        }
        return lease
    }

    /// Gives the lease back, and its connection to the pool (without the server's limit on
    /// its silence); a connection whose locks could not be released is closed, which releases
    /// them too.
    package func release() {
        heartbeat?.stop()
        session.release(to: pool)
    }

    deinit { release() }

    /// The two `int4` keys of a feed's lock, from SQL expressions for the schema and the feed.
    static func keysSQL(schema: String, feed: String) -> String {
        "hashtext('feedwork.' || \(schema)), hashtext(\(feed))"
    }

    /// A condition that holds when some session holds the lease of the feed `feed` (an SQL
    /// expression) in the schema `schema` (another), on this database.
    static func heldSQL(schema: String, feed: String) -> String {
        """
        EXISTS (
            SELECT 1 FROM pg_locks
            WHERE locktype = 'advisory' AND granted AND objsubid = 2
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND classid::bigint = (hashtext('feedwork.' || \(schema))::bigint & 4294967295)
                AND objid::bigint = (hashtext(\(feed))::bigint & 4294967295)
        )
        """
    }

    /// Another pass of the feed holds its lease.
    struct Busy: Error, CustomStringConvertible {
        var feed: String
        package var location: String
        var waited: Duration
        var description: String {
            "feed busy: another pass of '\(feed)' is running on \(location) (from this machine or another; waited "
                + "\(FeedDuration(milliseconds: Int64(waited / .milliseconds(1)))); use --wait to wait longer)"
        }
    }
}
