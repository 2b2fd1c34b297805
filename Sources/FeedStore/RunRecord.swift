import Foundation

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

    package enum CodingKeys: String, CodingKey {
        case run, feed, adapter, status, inserted, updated, unchanged, deleted, rejected, requests, error, notes
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case durationMilliseconds = "duration_ms"
    }

    package init(
        run: Int64, feed: String, adapter: String, status: String, startedAt: String, finishedAt: String? = nil,
        durationMilliseconds: Int? = nil, inserted: Int, updated: Int, unchanged: Int, deleted: Int, rejected: Int,
        requests: Int, error: String? = nil, notes: [String] = []
    ) {
        self.run = run
        self.feed = feed
        self.adapter = adapter
        self.status = status
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationMilliseconds = durationMilliseconds
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
        self.rejected = rejected
        self.requests = requests
        self.error = error
        self.notes = notes
    }
}

extension RunRecord {
    /// The notes `_runs.notes` holds, one per line.
    package static func notes(_ text: String?) -> [String] {
        text.map { $0.split(separator: "\n").map(String.init) } ?? []
    }
}
