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

    /// Records a failed pass, in a transaction of its own (the pass's was rolled back), with the
    /// outbox events the adapter asks for after a failure (sealed URLs) and the credential
    /// `_state` the pass set.
    package func recordFailedRun(
        _ id: Int64, feed: String, outcome: RunOutcome, outbox: [String], rejects: [Reject],
        credentials: [String: String?]
    ) async throws {
        try await write { db in
            try Self.recordRun(id, outcome: outcome, in: db)
            try StoreOutbox.enqueue(outbox, feed: feed, run: id, in: SQLiteSQLConnection(db: db))
            try StoreRejects.insert(rejects, run: id, feed: feed, in: SQLiteSQLConnection(db: db))
            try StoreState.set(credentials, feed: feed, in: SQLiteSQLConnection(db: db))
        }
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

    /// The highest run id whose changes the store holds completely: runs still `running` have not
    /// committed, so the bound stops before the first of them.
    public func completeRun() async throws -> Int64 { try await read(Self.completeRun(in:)) }

    /// ``completeRun()`` on the snapshot of `db`, for reads that must agree with it.
    static func completeRun(in db: Database) throws -> Int64 {
        let sql = """
            SELECT COALESCE((SELECT MIN(id) - 1 FROM _runs WHERE status = 'running'), (SELECT MAX(id) FROM _runs), 0)
            """
        return try Int64.fetchOne(db, sql: sql) ?? 0
    }

    /// The names of the feeds that have run on this store, sorted.
    package func feedsThatRan() async throws -> [String] {
        try await read { db in try String.fetchAll(db, sql: "SELECT DISTINCT feed FROM _runs ORDER BY feed") }
    }

    static func recordRun(_ id: Int64, outcome: RunOutcome, in db: Database) throws {
        try db.execute(
            sql: """
                UPDATE _runs SET finished_at = ?, status = ?, requests = ?, attempts = ?, bytes = ?, inserted = ?,
                    updated = ?, unchanged = ?, deleted = ?, rejected = ?, error = ?, notes = ?
                WHERE id = ?
                """,
            arguments: [
                Timestamp.string(outcome.finished), outcome.status.rawValue, outcome.requests, outcome.attempts,
                outcome.bytes, outcome.counts.inserted, outcome.counts.updated, outcome.counts.unchanged,
                outcome.counts.deleted, outcome.counts.rejected, outcome.error,
                outcome.recordedNotes.isEmpty ? nil : outcome.recordedNotes.joined(separator: "\n"), id,
            ])
    }
}
