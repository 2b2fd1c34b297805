import FeedKit
import GRDB

extension SQLiteStore {
    /// The rejects of `feed` and of run `run` (each, when given), newest first, at most `limit`.
    public func rejects(feed: String?, run: Int64?, limit: Int) throws -> [RejectRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT run, feed, entity, reason, path, url, page, raw FROM _rejects
                    WHERE (?1 IS NULL OR feed = ?1) AND (?2 IS NULL OR run = ?2) ORDER BY id DESC LIMIT ?3
                    """, arguments: [feed, run, limit]
            ).map { row in
                RejectRecord(
                    run: row["run"], feed: row["feed"], entity: row["entity"], reason: row["reason"],
                    path: row["path"], url: row["url"], page: row["page"], raw: row["raw"])
            }
        }
    }
}
