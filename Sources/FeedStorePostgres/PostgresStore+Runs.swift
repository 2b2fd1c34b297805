import FeedKit
import FeedStore
import Foundation

/// `_runs` on PostgreSQL: one row per feed per pass, from `running` to its outcome.
extension PostgresStore {
    /// Marks runs left `running` by a process that died as `interrupted`.
    ///
    /// Many processes share one database, so only runs whose feed no process holds (its lease,
    /// ``PostgresFeedLease``, is free) are marked: a pass under way elsewhere stays `running`.
    package func markInterruptedRuns() async throws {
        let schema = schema
        try await write { connection in try Self.markInterruptedRuns(of: nil, schema: schema, in: connection) }
    }

    /// ``markInterruptedRuns()`` in a transaction under way, for the runs of `feeds` only (all
    /// feeds when `nil`): a worker claiming feeds takes over what a dead worker left of them.
    static func markInterruptedRuns(of feeds: [String]?, schema: String, in connection: PostgresConnection) throws {
        _ = try connection.execute(
            """
            UPDATE _runs SET status = 'interrupted'
            WHERE status = 'running' AND ($2::jsonb IS NULL OR feed IN (SELECT jsonb_array_elements_text($2::jsonb)))
                AND NOT \(PostgresFeedLease.heldSQL(schema: "$1", feed: "_runs.feed"))
            """, [schema, feeds?.jsonArrayText])
    }
}
