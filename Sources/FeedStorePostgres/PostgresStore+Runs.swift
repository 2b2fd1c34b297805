import FeedKit
import FeedStore
import Foundation

/// `_runs` on PostgreSQL: one row per feed per pass, from `running` to its outcome.
extension PostgresStore {
    /// Records a failed pass in a transaction of its own, with the outbox events the adapter
    /// asks for after a failure.
    package func recordFailedRun(
        _ id: Int64, feed: String, outcome: RunOutcome, outbox: [String], rejects: [Reject],
        credentials: [String: String?]
    ) async throws {
        try await write { connection in
            try Self.recordRun(id, outcome: outcome, in: connection)
            try StoreOutbox.enqueue(outbox, feed: feed, run: id, in: PostgresSQLConnection(connection: connection))
            try StoreRejects.insert(rejects, run: id, feed: feed, in: PostgresSQLConnection(connection: connection))
            try StoreState.set(credentials, feed: feed, in: PostgresSQLConnection(connection: connection))
        }
    }

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

    /// The highest run id whose changes the store holds completely.
    func completeRun() async throws -> Int64 {
        try await read { try PostgresSnapshot(connection: $0).completeRun() }
    }

    /// The names of the feeds that have run on this store, sorted.
    package func feedsThatRan() async throws -> [String] {
        try await read { connection in
            let rows = try connection.execute("SELECT DISTINCT feed FROM _runs ORDER BY feed")
            return (0..<rows.count).compactMap { rows[$0, 0] }
        }
    }

    /// Records a pass's outcome in its run row.
    static func recordRun(_ id: Int64, outcome: RunOutcome, in connection: PostgresConnection) throws {
        let counts = outcome.counts
        try connection.execute(
            """
            UPDATE _runs SET finished_at = $1, status = $2, requests = $3, attempts = $4, bytes = $5, inserted = $6,
                updated = $7, unchanged = $8, deleted = $9, rejected = $10, error = $11, notes = $12
            WHERE id = $13
            """,
            [
                Timestamp.string(outcome.finished), outcome.status.rawValue, String(outcome.requests),
                String(outcome.attempts), String(outcome.bytes), String(counts.inserted), String(counts.updated),
                String(counts.unchanged), String(counts.deleted), String(counts.rejected), outcome.error,
                outcome.recordedNotes.isEmpty ? nil : outcome.recordedNotes.joined(separator: "\n"), String(id),
            ])
    }

    package func runs(feed: String?, before: Int64?, limit: Int) async throws -> [RunRecord] {
        try await read { connection in
            let rows = try connection.execute(
                """
                SELECT id, feed, adapter, status, \(PostgresSQL.isoText("started_at")),
                    \(PostgresSQL.isoText("finished_at")),
                    (extract(epoch FROM finished_at - started_at) * 1000)::bigint,
                    inserted, updated, unchanged, deleted, rejected, requests, error, notes
                FROM _runs WHERE ($1::text IS NULL OR feed = $1) AND ($3::bigint IS NULL OR id < $3)
                ORDER BY id DESC LIMIT $2
                """, [feed, String(limit), before.map { String($0) }])
            return (0..<rows.count).map { row in
                func int(_ column: Int) -> Int { Int(rows[row, column] ?? "") ?? 0 }
                return RunRecord(
                    run: Int64(rows[row, 0] ?? "") ?? 0, feed: rows[row, 1] ?? "", adapter: rows[row, 2] ?? "",
                    status: rows[row, 3] ?? "", startedAt: rows[row, 4] ?? "", finishedAt: rows[row, 5],
                    durationMilliseconds: rows[row, 6].flatMap { Int($0) }, inserted: int(7), updated: int(8),
                    unchanged: int(9), deleted: int(10), rejected: int(11), requests: int(12), error: rows[row, 13],
                    notes: RunRecord.notes(rows[row, 14]))
            }
        }
    }
}
