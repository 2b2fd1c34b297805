import FeedKit
import FeedStore
import GRDB

extension SQLiteStore {
    /// Adds `rejects` of `feed`'s pass `run` to `_rejects`: in the pass's transaction, or, for
    /// a pass that failed, in the one that records its end (``recordFailedRun(_:feed:outcome:outbox:rejects:credentials:)``).
    static func insertRejects(_ rejects: [Reject], run: Int64, feed: String, in db: Database) throws {
        guard !rejects.isEmpty else { return }
        let statement = try SQLiteRawStatement(
            db,
            "INSERT INTO _rejects(run, feed, entity, path, reason, raw, url, page) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        )
        for reject in rejects {
            statement.bind(run, at: 1)
            statement.bind(feed, at: 2)
            statement.bind(reject.entity, at: 3)
            statement.bind(reject.path, at: 4)
            statement.bind(reject.reason, at: 5)
            statement.bind(reject.raw, at: 6)
            statement.bind(.text(reject.source?.url), at: 7)
            statement.bind(.integer(reject.source?.page), at: 8)
            try statement.step(db)
            statement.reset()
        }
    }

    /// The rejects of `feed` and of run `run` (each, when given), newest first, at most `limit`.
    public func rejects(feed: String?, run: Int64?, limit: Int) async throws -> [RejectRecord] {
        try await read { db in
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
