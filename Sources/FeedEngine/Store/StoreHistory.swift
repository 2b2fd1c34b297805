import FeedKit

/// The run history and the rejects of a store, for `feedwork runs` and `feedwork rejects`,
/// whichever database holds it.
public protocol StoreHistory: Sendable {
    /// The runs of `feed` (or of every feed) older than run `before` (when given), newest
    /// first, at most `limit` of them: a page of the history, by run id.
    func runs(feed: String?, before: Int64?, limit: Int) throws -> [RunRecord]
    /// The rejects of `feed` and of run `run` (each, when given), newest first, at most `limit`.
    func rejects(feed: String?, run: Int64?, limit: Int) throws -> [RejectRecord]
}

extension StoreHistory {
    /// The runs of `feed` (or of every feed), newest first, at most `limit` of them.
    public func runs(feed: String?, limit: Int) throws -> [RunRecord] {
        try runs(feed: feed, before: nil, limit: limit)
    }
}

extension SQLiteStore: StoreHistory {}

extension PostgresStore: StoreHistory {
    func rejects(feed: String?, run: Int64?, limit: Int) throws -> [RejectRecord] {
        try read { connection in
            let rows = try connection.execute(
                """
                SELECT run, feed, entity, reason, path, url, page, raw FROM _rejects
                WHERE ($1::text IS NULL OR feed = $1) AND ($2::bigint IS NULL OR run = $2) ORDER BY id DESC LIMIT $3
                """, [feed, run.map { String($0) }, String(limit)])
            return (0..<rows.count).map { row in
                RejectRecord(
                    run: Int64(rows[row, 0] ?? "") ?? 0, feed: rows[row, 1] ?? "", entity: rows[row, 2] ?? "",
                    reason: rows[row, 3] ?? "", path: rows[row, 4] ?? "", url: rows[row, 5],
                    page: rows[row, 6].flatMap { Int($0) }, raw: rows[row, 7] ?? "")
            }
        }
    }
}
