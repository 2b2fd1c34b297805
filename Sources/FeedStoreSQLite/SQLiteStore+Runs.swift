import FeedKit
import FeedStore
import Foundation
import GRDB

/// `_runs`: one row per feed per pass, from `running` to its outcome.
extension SQLiteStore {
    /// Records the start of `feed`'s pass. Its tables are prepared in the pass's own transaction (``passTransaction(feed:run:stamp:bindings:)``), so a pass that fails
    /// leaves no table, column or view behind.
    ///
    /// - Returns: the run id, which rows the pass changes carry in `_run`.
    package func startRun(feed: String, adapter: AdapterOrigin, at started: Date) async throws -> Int64 {
        try await write { db in
            try db.execute(
                sql:
                    "INSERT INTO _runs(feed, adapter, adapter_module, started_at, status) VALUES (?, ?, ?, ?, 'running')",
                arguments: [feed, adapter.name, adapter.module, Timestamp.string(started)])
            return db.lastInsertedRowID
        }
    }

    /// Records a failed pass (``writeFailedRun(_:feed:outcome:outbox:rejects:credentials:)``),
    /// then forgets the credentials set aside, which `_state` now holds.
    package func recordFailedRun(
        _ id: Int64, feed: String, outcome: RunOutcome, outbox: [String], rejects: [Reject],
        credentials: [String: String?]
    ) async throws {
        try await writeFailedRun(
            id, feed: feed, outcome: outcome, outbox: outbox, rejects: rejects, credentials: credentials)
        try credentialJournal.forget(credentials, feed: feed)
    }

    /// Marks runs left `running` by a process that died as `interrupted`.
    ///
    /// Looked for first with a read: usually there is none, and the
    /// store opens without a write.
    package func markInterruptedRuns() async throws {
        let found = try await read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM _runs WHERE status = 'running')") ?? false
        }
        guard found else { return }
        try await write { db in
            try db.execute(sql: "UPDATE _runs SET status = 'interrupted' WHERE status = 'running'")
        }
    }
}
