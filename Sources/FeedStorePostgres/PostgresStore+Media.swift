import FeedStore
import Foundation

/// `_media` and `_media_urls` on PostgreSQL: the images are `bytea`, so every machine sharing
/// the server sees them.
extension PostgresStore: MediaStore {
    package func mediaReferences(feed: String, table: String, column: String) async throws -> Set<String> {
        let column = PostgresSQL.identifier(column)
        let sql = """
            SELECT DISTINCT \(column) FROM \(PostgresSQL.identifier(table))
            WHERE _feed = $1 AND \(column) IS NOT NULL AND \(column) <> ''
            """
        return try await read { connection in
            let rows = try connection.execute(sql, [feed])
            return Set((0..<rows.count).compactMap { rows[$0, 0] })
        }
    }

    package func mediaURLs(feed: String) async throws -> [String: MediaURLRecord] {
        try await read { connection in
            let rows = try connection.execute(
                """
                SELECT url, hash, etag, last_modified, \(PostgresSQL.isoText("checked_at")), failures,
                    \(PostgresSQL.isoText("retry_at"))
                FROM _media_urls WHERE feed = $1
                """, [feed])
            var result: [String: MediaURLRecord] = [:]
            for row in 0..<rows.count {
                result[rows[row, 0] ?? ""] = MediaURLRecord(
                    hash: rows[row, 1], etag: rows[row, 2], lastModified: rows[row, 3],
                    checkedAt: rows[row, 4].flatMap(Timestamp.date), failures: Int(rows[row, 5] ?? "") ?? 0,
                    retryAt: rows[row, 6].flatMap(Timestamp.date))
            }
            return result
        }
    }

    package func recordMedia(_ media: FetchedMedia?, feed: String, url: String, validators: MediaValidators, at: Date)
        async throws
    {
        let now = Timestamp.string(at)
        try await write { connection in
            if let media {
                // Touching `fetched_at` of an image already kept keeps `gc` off it for its grace.
                try connection.execute(
                    """
                    INSERT INTO _media(hash, type, size, width, height, bytes, fetched_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7)
                    ON CONFLICT (hash) DO UPDATE SET fetched_at = excluded.fetched_at
                    """,
                    [
                        media.hash, media.signature.format.mediaType, String(media.bytes.count),
                        media.signature.width.map(String.init), media.signature.height.map(String.init),
                        Hex.bytea(media.bytes), now,
                    ])
            }
            try connection.execute(
                """
                INSERT INTO _media_urls(feed, url, hash, etag, last_modified, checked_at, failures)
                VALUES ($1, $2, $3, $4, $5, $6, 0)
                ON CONFLICT (feed, url) DO UPDATE SET
                    hash = coalesce(excluded.hash, _media_urls.hash), etag = excluded.etag,
                    last_modified = excluded.last_modified, checked_at = excluded.checked_at, failures = 0,
                    last_error = NULL, retry_at = NULL
                """, [feed, url, media?.hash, validators.etag, validators.lastModified, now])
        }
    }

    package func recordMediaFailure(feed: String, url: String, error: String, retryAt: Date, at: Date) async throws {
        let (now, retry) = (Timestamp.string(at), Timestamp.string(retryAt))
        try await write { connection in
            _ = try connection.execute(
                """
                INSERT INTO _media_urls(feed, url, checked_at, failures, last_error, retry_at)
                VALUES ($1, $2, $3, 1, $4, $5)
                ON CONFLICT (feed, url) DO UPDATE SET
                    checked_at = excluded.checked_at, failures = _media_urls.failures + 1,
                    last_error = excluded.last_error, retry_at = excluded.retry_at
                """, [feed, url, now, error, retry])
        }
    }

    package func forgetMediaURLs(feed: String, keeping urls: Set<String>) async throws {
        let gone = try await mediaURLs(feed: feed).keys.filter { !urls.contains($0) }
        guard !gone.isEmpty else { return }
        try await write { connection in
            for url in gone {
                try connection.execute("DELETE FROM _media_urls WHERE feed = $1 AND url = $2", [feed, url])
            }
        }
    }

    package func media(hash: String) async throws -> StoredMedia? {
        try await read { connection in
            let rows = try connection.execute("SELECT type, bytes FROM _media WHERE hash = $1", [hash])
            guard rows.count > 0, let type = rows[0, 0], let bytes = Hex.bytea(rows[0, 1] ?? "") else { return nil }
            return StoredMedia(hash: hash, type: type, bytes: bytes)
        }
    }

    package func mediaHashes(urls: [String]) async throws -> [String: String] {
        guard !urls.isEmpty else { return [:] }
        return try await read { connection in
            var result: [String: String] = [:]
            for url in Set(urls) {
                let rows = try connection.execute(
                    """
                    SELECT u.hash FROM _media_urls u JOIN _media m ON m.hash = u.hash WHERE u.url = $1 LIMIT 1
                    """, [url])
                if rows.count > 0, let hash = rows[0, 0] { result[url] = hash }
            }
            return result
        }
    }

    package func mediaSummaries() async throws -> [String: MediaSummary] {
        try await read { connection in
            let rows = try connection.execute(MediaSQL.summaries)
            var result: [String: MediaSummary] = [:]
            for row in 0..<rows.count {
                func number(_ column: Int) -> Int { Int(rows[row, column] ?? "") ?? 0 }
                result[rows[row, 0] ?? ""] = MediaSummary(
                    referenced: number(1), mirrored: number(2), failed: number(3), bytes: number(4))
            }
            return result
        }
    }

    package func collectMediaGarbage(olderThan cutoff: Date) async throws -> (count: Int, bytes: Int) {
        let before = Timestamp.string(cutoff)
        return try await write { connection in
            let totals = try connection.execute(MediaSQL.garbageTotals, [before])
            try connection.execute(MediaSQL.collectGarbage, [before])
            return (Int(totals[0, 0] ?? "") ?? 0, Int(totals[0, 1] ?? "") ?? 0)
        }
    }
}
