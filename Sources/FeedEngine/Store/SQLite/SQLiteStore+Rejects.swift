import FeedKit
import GRDB

/// A record a pass rejected, as `_rejects` keeps it, for `feedwork rejects`.
public struct RejectRecord: Sendable, Hashable, Codable {
    /// The run that rejected it.
    public var run: Int64
    public var feed: String
    public var entity: String
    public var reason: String
    /// Where in the response the record was (`$.data.items[3].price`).
    public var path: String
    /// The URL of the response it came from (secrets as `***`), when known.
    public var url: String?
    /// The response's page within its pass (1-based), when known.
    public var page: Int?
    /// The record's JSON as received.
    public var raw: String
}

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
