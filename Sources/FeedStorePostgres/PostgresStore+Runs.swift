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
        try await writeSQL { connection in try Self.markInterruptedRuns(of: nil, schema: schema, in: connection) }
    }

    /// ``markInterruptedRuns()`` in a transaction under way, for the runs of `feeds` only (all
    /// feeds when `nil`).
    static func markInterruptedRuns(of feeds: [String]?, schema: String, in connection: any SQLConnection) throws {
        let names = SQLValue(feeds?.jsonArrayText)
        try connection.execute(
            """
            UPDATE _runs SET status = 'interrupted'
            WHERE status = 'running'
                AND (CAST(? AS jsonb) IS NULL OR feed IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb))))
                AND NOT \(PostgresFeedLease.heldSQL(schema: "CAST(? AS text)", feed: "_runs.feed"))
            """, [names, names, .text(schema)])
    }
}
