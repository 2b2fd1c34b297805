import FeedKit
import FeedStore

/// `_rejects`, for `feedwork rejects`: with the runs (`PostgresStore+Runs`), the store's history.
extension PostgresStore {
    /// Adds `rejects` of `feed`'s pass `run` to `_rejects`: in the pass's transaction, or, for
    /// a pass that failed, in the one that records its end.
    static func insertRejects(_ rejects: [Reject], run: Int64, feed: String, in connection: PostgresConnection)
        throws
    {
        for reject in rejects {
            try connection.execute(
                "INSERT INTO _rejects(run, feed, entity, path, reason, raw, url, page) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [
                    String(run), feed, reject.entity, reject.path, reject.reason, reject.raw, reject.source?.url,
                    reject.source?.page.map { String($0) },
                ])
        }
    }

    package func rejects(feed: String?, run: Int64?, limit: Int) async throws -> [RejectRecord] {
        try await read { connection in
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
