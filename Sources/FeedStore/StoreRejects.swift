import FeedKit

/// `_rejects`: the records a pass set aside, with why; written once for every driver. With the
/// runs, the store's history (`feedwork rejects`).
extension StoreReading {
    /// The rejects of `feed` and of run `run` (each, when given), newest first, at most `limit`.
    package func rejects(feed: String?, run: Int64?, limit: Int) async throws -> [RejectRecord] {
        var filter = SQLFilter()
        filter.add("feed = ?", feed.map(SQLValue.text))
        filter.add("run = ?", run.map(SQLValue.integer))
        let sql =
            "SELECT run, feed, entity, reason, path, url, page, raw FROM _rejects \(filter.clause) ORDER BY id DESC LIMIT ?"
        return try await readSQL { [filter] connection in
            try connection.rows(sql, filter.arguments + [.integer(Int64(limit))]).map { row in
                RejectRecord(
                    run: row[0].integer ?? 0, feed: row[1].text ?? "", entity: row[2].text ?? "",
                    reason: row[3].text ?? "", path: row[4].text ?? "", url: row[5].text,
                    page: row[6].integer.map { Int($0) }, raw: row[7].text ?? "")
            }
        }
    }
}

/// Keeping a pass's rejects in a transaction under way.
package enum StoreRejects {
    /// Adds `rejects` of `feed`'s pass `run` to `_rejects`: in the pass's transaction, or, for
    /// a pass that failed, in the one that records its end.
    package static func insert(_ rejects: [Reject], run: Int64, feed: String, in connection: any SQLConnection) throws {
        for reject in rejects {
            try connection.execute(
                "INSERT INTO _rejects(run, feed, entity, path, reason, raw, url, page) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .integer(run), SQLValue(feed), SQLValue(reject.entity), SQLValue(reject.path),
                    SQLValue(reject.reason), SQLValue(reject.raw), SQLValue(reject.source?.url),
                    SQLValue(reject.source?.page),
                ])
        }
    }
}
