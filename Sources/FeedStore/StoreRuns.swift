import FeedKit
import Foundation

/// `_runs`: one row per feed per pass, from `running` to its outcome, written once for every
/// driver. Where processes share the store (PostgreSQL), its driver's hooks fence a new run and
/// leave the runs of live processes alone (``StoreDriver/beginRun(of:in:)``,
/// ``StoreDriver/interruptAbandonedRuns(of:in:)``).
extension StoreReading {
    /// The runs of `feed` (or of every feed) older than run `before` (when given), newest first,
    /// at most `limit` of them.
    package func runs(feed: String?, before: Int64?, limit: Int) async throws -> [RunRecord] {
        var filter = SQLFilter()
        filter.add("feed = ?", feed.map(SQLValue.text))
        filter.add("id < ?", before.map(SQLValue.integer))
        let sql = """
            SELECT id, feed, adapter, status, \(dialect.timestampText("started_at")),
                \(dialect.timestampText("finished_at")), inserted, updated, unchanged, deleted, rejected, requests,
                error, notes
            FROM _runs \(filter.clause) ORDER BY id DESC LIMIT ?
            """
        return try await readSQL { [filter] connection in
            try connection.rows(sql, filter.arguments + [.integer(Int64(limit))]).map { row in
                func number(_ column: Int) -> Int { Int(row[column].integer ?? 0) }
                let started = row[4].text ?? ""
                let finished = row[5].text
                let duration = finished.flatMap(Timestamp.date).flatMap { end in
                    Timestamp.date(started).map { Int((end.timeIntervalSince($0) * 1000).rounded()) }
                }
                return RunRecord(
                    run: row[0].integer ?? 0, feed: row[1].text ?? "", adapter: row[2].text ?? "",
                    status: row[3].text ?? "", startedAt: started, finishedAt: finished,
                    durationMilliseconds: duration, inserted: number(6), updated: number(7), unchanged: number(8),
                    deleted: number(9), rejected: number(10), requests: number(11), error: row[12].text,
                    notes: RunRecord.notes(row[13].text))
            }
        }
    }

    /// The names of the feeds that have run on the store, sorted.
    package func feedsThatRan() async throws -> [String] {
        try await readSQL { connection in
            try connection.rows("SELECT DISTINCT feed FROM _runs ORDER BY feed", []).compactMap { $0[0].text }
        }
    }
}

extension Store {
    /// Records the start of `feed`'s pass, which holds the feed's lease. Its tables are prepared
    /// in the pass's own transaction (``passTransaction(feed:run:stamp:bindings:)``), so a pass
    /// that fails leaves no table, column or view behind.
    ///
    /// - Returns: the run id, which rows the pass changes carry in `_run`.
    package func startRun(feed: String, adapter: AdapterOrigin, at started: Date) async throws -> Int64 {
        try await writeSQL { connection in
            try self.driver.beginRun(of: feed, in: connection)
            let rows = try connection.rows(
                "INSERT INTO _runs(feed, adapter, adapter_module, started_at, status) VALUES (?, ?, ?, ?, 'running') RETURNING id",
                [.text(feed), .text(adapter.name), .text(adapter.module), .text(Timestamp.string(started))])
            guard let id = rows.first?.first?.integer else {
                throw StoreError(path: connection.location, message: "the run of feed '\(feed)' got no id")
            }
            return id
        }
    }

    /// Marks runs left `running` by a process that died as `interrupted`
    /// (``interruptAbandonedRuns(of:in:)``). Looked for first with a read: usually there is none,
    /// and the store opens without a write.
    package func markInterruptedRuns() async throws {
        let found = try await readSQL { connection in
            try !connection.rows("SELECT 1 FROM _runs WHERE status = 'running' LIMIT 1", []).isEmpty
        }
        guard found else { return }
        try await writeSQL { connection in try self.driver.interruptAbandonedRuns(of: nil, in: connection) }
    }

    /// Records a failed pass (``writeFailedRun(_:feed:outcome:outbox:rejects:credentials:)``),
    /// then forgets the credentials set aside (``StoreReading/credentialJournal``), which
    /// `_state` now holds.
    package func recordFailedRun(
        _ id: Int64, feed: String, outcome: RunOutcome, outbox: [String], rejects: [Reject],
        credentials: [String: String?]
    ) async throws {
        try await writeFailedRun(
            id, feed: feed, outcome: outcome, outbox: outbox, rejects: rejects, credentials: credentials)
        try credentialJournal?.forget(credentials, feed: feed)
    }

    /// Records a failed pass in a transaction of its own (the pass's was rolled back): its
    /// outcome, the outbox events the adapter asks for after a failure (sealed URLs), the
    /// rejects it had written, which explain why it failed, and the credential `_state` it set.
    package func writeFailedRun(
        _ id: Int64, feed: String, outcome: RunOutcome, outbox: [String], rejects: [Reject],
        credentials: [String: String?]
    ) async throws {
        try await writeSQL { connection in
            try StoreRuns.record(id, outcome: outcome, in: connection)
            try StoreOutbox.enqueue(outbox, feed: feed, run: id, in: connection)
            try StoreRejects.insert(rejects, run: id, feed: feed, in: connection)
            try StoreState.set(credentials, feed: feed, in: connection)
        }
    }
}

/// Writing a run's row in a transaction under way.
package enum StoreRuns {
    /// Marks `interrupted` the runs still `running` of `feeds` (of every feed when `nil`).
    package static func interrupt(of feeds: [String]?, in connection: any SQLConnection) throws {
        let sql = "UPDATE _runs SET status = 'interrupted' WHERE status = 'running'"
        guard let feeds else {
            _ = try connection.execute(sql, [])
            return
        }
        _ = try connection.execute(
            sql + " AND feed IN (\(connection.dialect.jsonArrayTexts))", [.text(feeds.jsonArrayText)])
    }

    /// Records a pass's outcome in its run row `id`.
    package static func record(_ id: Int64, outcome: RunOutcome, in connection: any SQLConnection) throws {
        let counts = outcome.counts
        _ = try connection.execute(
            """
            UPDATE _runs SET finished_at = ?, status = ?, requests = ?, attempts = ?, bytes = ?, inserted = ?,
                updated = ?, unchanged = ?, deleted = ?, rejected = ?, error = ?, notes = ?
            WHERE id = ?
            """,
            [
                .text(Timestamp.string(outcome.finished)), .text(outcome.status.rawValue), SQLValue(outcome.requests),
                SQLValue(outcome.attempts), SQLValue(outcome.bytes), SQLValue(counts.inserted),
                SQLValue(counts.updated), SQLValue(counts.unchanged), SQLValue(counts.deleted),
                SQLValue(counts.rejected), SQLValue(outcome.error),
                SQLValue(outcome.recordedNotes.isEmpty ? nil : outcome.recordedNotes.joined(separator: "\n")),
                .integer(id),
            ])
    }
}
