import FeedKit
import FeedStore
import Foundation
import GRDB

extension SQLiteStore {
    /// The runs of `feed` (or of every feed) older than run `before` (when given), newest first,
    /// at most `limit` of them.
    public func runs(feed: String?, before: Int64?, limit: Int) async throws -> [RunRecord] {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, feed, adapter, status, started_at, finished_at, inserted, updated, unchanged, deleted,
                        rejected, requests, error, notes
                    FROM _runs WHERE (?1 IS NULL OR feed = ?1) AND (?3 IS NULL OR id < ?3) ORDER BY id DESC LIMIT ?2
                    """, arguments: [feed, limit, before])
            return rows.map { row in
                let started: String = row["started_at"]
                let finished: String? = row["finished_at"]
                let duration = finished.flatMap(Timestamp.date).flatMap { end in
                    Timestamp.date(started).map { Int((end.timeIntervalSince($0) * 1000).rounded()) }
                }
                return RunRecord(
                    run: row["id"], feed: row["feed"], adapter: row["adapter"], status: row["status"],
                    startedAt: started, finishedAt: finished, durationMilliseconds: duration,
                    inserted: row["inserted"], updated: row["updated"], unchanged: row["unchanged"],
                    deleted: row["deleted"], rejected: row["rejected"], requests: row["requests"], error: row["error"],
                    notes: RunRecord.notes(row["notes"]))
            }
        }
    }
}
