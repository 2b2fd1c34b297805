import FeedStore
import Foundation

/// What keeps a pass that lost its feed's lease from committing: the run ids of a feed are its
/// fencing tokens.
///
/// A pass holds its feed's lease (``PostgresFeedLease``) while it runs, so no other run of the
/// feed starts meanwhile. But a lease can be lost while its pass goes on: the server ends the
/// lease's session when the process was paused or cut off for longer than it allows
/// (``PostgresLiveness``), and another worker then starts the feed's next run. When the old
/// pass wakes and commits, it would write over a newer pass. So a pass's commit checks, under a
/// transaction lock that every run's start takes too, that its run row is still `running` and
/// no later run of the feed has started; otherwise it rolls back. Either the commit comes first
/// and the next run starts after it, or the next run came first and the commit is refused.
enum PostgresRunFence {
    /// The statement that takes the feed's fence lock until the transaction ends; `$1` is the feed.
    static let lockSQL = "SELECT pg_advisory_xact_lock(hashtext('feedwork.fence.' || current_schema()), hashtext($1))"

    /// Throws ``Lost`` unless run `run` of `feed` may commit, in the transaction on `connection`.
    static func check(run: Int64, feed: String, in connection: PostgresConnection) throws {
        try connection.execute(lockSQL, [feed])
        let rows = try connection.execute(
            "SELECT (SELECT status FROM _runs WHERE id = $1), (SELECT min(id) FROM _runs WHERE feed = $2 AND id > $1)",
            [String(run), feed])
        let status = rows[0, 0]
        let later = rows[0, 1].flatMap { Int64($0) }
        if status != "running" || later != nil {
            throw Lost(feed: feed, run: run, status: status, laterRun: later)
        }
    }

    /// A pass that lost its feed's lease while it ran: rolled back, nothing changed.
    struct Lost: Error, CustomStringConvertible {
        var feed: String
        var run: Int64
        /// Its run row's status when it tried to commit (`interrupted`: another worker found
        /// the feed free and took it over).
        var status: String?
        /// The feed's run that started after this one, if any.
        var laterRun: Int64?

        var description: String {
            let why =
                laterRun.map { "run \($0) of the feed started since" }
                ?? "another worker marked it \(status ?? "gone") when it found the feed free"
            return "the pass of '\(feed)' (run \(run)) lost the feed's lease while it ran: \(why) (this process was "
                + "paused or cut off from the server for longer than the server allows); it was rolled back and "
                + "changed nothing"
        }
    }
}
