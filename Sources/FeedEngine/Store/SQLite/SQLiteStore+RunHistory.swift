import FeedKit
import Foundation
import GRDB

/// One pass as `_runs` keeps it, for `feedwork runs`.
public struct RunRecord: Sendable, Hashable, Codable {
    /// The run id (`_runs.id`), which rows the pass changed carry in `_run`.
    public var run: Int64
    public var feed: String
    public var adapter: String
    /// `ok`, `ok_with_rejects`, `stale`, `failed`, `running` or `interrupted`.
    public var status: String
    public var startedAt: String
    /// `nil` while the pass runs, or when its process died.
    public var finishedAt: String?
    public var durationMilliseconds: Int?
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    public var deleted: Int
    public var rejected: Int
    public var requests: Int
    /// Redacted, like everything `_runs` holds.
    public var error: String?
    /// The report's notes (stale responses served from the cache, duplicate keys, ...), one per
    /// line; redacted.
    public var notes: [String] = []

    enum CodingKeys: String, CodingKey {
        case run, feed, adapter, status, inserted, updated, unchanged, deleted, rejected, requests, error, notes
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case durationMilliseconds = "duration_ms"
    }
}

extension SQLiteStore {
    /// The runs of `feed` (or of every feed) older than run `before` (when given), newest first,
    /// at most `limit` of them.
    public func runs(feed: String?, before: Int64?, limit: Int) throws -> [RunRecord] {
        try read { db in
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

extension RunRecord {
    /// The notes `_runs.notes` holds, one per line.
    static func notes(_ text: String?) -> [String] {
        text.map { $0.split(separator: "\n").map(String.init) } ?? []
    }
}
