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
final class PostgresFeedLease {
    let feed: String
    private let connection: PostgresConnection

    private init(url: String, feed: String) throws(PostgresError) {
        self.feed = feed
        connection = try PostgresConnection(url: url)
    }

    /// Takes the lease of `feed`, trying again every 100 ms (without holding a thread) until
    /// `wait` runs out.
    ///
    /// - Throws: ``PostgresFeedLease/Busy`` when another pass holds it all that time;
    ///   ``PostgresError`` when the server fails.
    static func take(url: String, schema: String, feed: String, wait: Duration) async throws -> PostgresFeedLease {
        let lease = try PostgresFeedLease(url: url, feed: feed)
        let deadline = ContinuousClock.now + wait
        while try lease.connection.execute(
            "SELECT pg_try_advisory_lock(\(keysSQL(schema: "$1", feed: "$2")))", [schema, feed]
        ).first(column: 0) != "t" {
            guard ContinuousClock.now < deadline else {
                throw Busy(feed: feed, location: lease.connection.location, waited: wait)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return lease
    }

    /// Gives the lease back (closing its connection would too).
    package func release() {
        _ = try? connection.execute("SELECT pg_advisory_unlock_all()")
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
