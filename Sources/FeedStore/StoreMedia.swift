import Foundation

/// Mirrored media in a store (`_media`, `_media_urls`): what the engine's ``MediaMirror``
/// writes after a pass commits, and what `serve`, `export --media`, `list` and `gc` read,
/// written once for every driver on its connections (``StoreReading/readSQL(_:)``, ``StoreDriver/writeSQL(_:)``).
///
/// The bytes live in the store itself (a BLOB in the SQLite file, `bytea` on PostgreSQL): one
/// file to copy for SQLite, one server for every machine on PostgreSQL, and an image and the
/// row naming it always commit together (Benchmarks/media-storage.sh has the figures).
extension StoreReading {
    /// The distinct values of `column` in the rows of `table` that `feed` wrote, nulls and
    /// empty texts left out.
    package func mediaReferences(feed: String, table: String, column: String) async throws -> Set<String> {
        let column = SQLIdentifier.quoted(column)
        let sql = """
            SELECT DISTINCT \(column) FROM \(SQLIdentifier.quoted(table))
            WHERE _feed = ? AND \(column) IS NOT NULL AND \(column) <> ''
            """
        return try await readSQL { connection in
            Set(try connection.rows(sql, [.text(feed)]).compactMap { $0[0].text })
        }
    }

    /// What `feed`'s media URLs recorded, by URL.
    package func mediaURLs(feed: String) async throws -> [String: MediaURLRecord] {
        try await readSQL { connection in
            let rows = try connection.rows(
                """
                SELECT url, hash, etag, last_modified, \(dialect.timestampText("checked_at")), failures,
                    \(dialect.timestampText("retry_at"))
                FROM _media_urls WHERE feed = ?
                """, [.text(feed)])
            var result: [String: MediaURLRecord] = [:]
            for row in rows {
                result[row[0].text ?? ""] = MediaURLRecord(
                    hash: row[1].text, etag: row[2].text, lastModified: row[3].text,
                    checkedAt: row[4].text.flatMap(Timestamp.date), failures: Int(row[5].integer ?? 0),
                    retryAt: row[6].text.flatMap(Timestamp.date))
            }
            return result
        }
    }

    /// The image of `hash`, or `nil`.
    package func media(hash: String) async throws -> StoredMedia? {
        try await readSQL { connection in
            guard
                let type = try connection.rows("SELECT type FROM _media WHERE hash = ?", [.text(hash)]).first?[0].text,
                let bytes = try connection.bytes("SELECT bytes FROM _media WHERE hash = ?", [.text(hash)])
            else { return nil }
            return StoredMedia(hash: hash, type: type, bytes: bytes)
        }
    }

    /// The hashes of the mirrored images of `urls` (any feed's), by URL.
    package func mediaHashes(urls: [String]) async throws -> [String: String] {
        guard !urls.isEmpty else { return [:] }
        return try await readSQL { connection in
            var result: [String: String] = [:]
            for url in Set(urls) {
                let rows = try connection.rows(
                    "SELECT u.hash FROM _media_urls u JOIN _media m ON m.hash = u.hash WHERE u.url = ? LIMIT 1",
                    [.text(url)])
                if let hash = rows.first?[0].text { result[url] = hash }
            }
            return result
        }
    }

    /// Per feed: media referenced, mirrored, failed, and the bytes of those mirrored.
    package func mediaSummaries() async throws -> [String: MediaSummary] {
        try await readSQL { connection in
            let rows = try connection.rows(
                """
                SELECT u.feed, count(*), count(m.hash),
                    sum(CASE WHEN m.hash IS NULL AND u.failures > 0 THEN 1 ELSE 0 END),
                    (SELECT sum(size) FROM _media WHERE hash IN (SELECT hash FROM _media_urls WHERE feed = u.feed))
                FROM _media_urls u LEFT JOIN _media m ON m.hash = u.hash
                GROUP BY u.feed
                """, [])
            var result: [String: MediaSummary] = [:]
            for row in rows {
                func number(_ column: Int) -> Int { Int(row[column].integer ?? 0) }
                result[row[0].text ?? ""] = MediaSummary(
                    referenced: number(1), mirrored: number(2), failed: number(3), bytes: number(4))
            }
            return result
        }
    }
}

extension Store {
    /// Records a fetch of `url` for `feed` in one transaction: the image (kept once by its hash)
    /// and the URL's row pointing at it, or, with `media` nil (304 Not Modified), the URL's
    /// check time and validators only.
    package func recordMedia(
        _ media: FetchedMedia?, feed: String, url: String, validators: MediaValidators, at: Date
    ) async throws {
        let now = Timestamp.string(at)
        try await writeSQL { connection in
            if let media {
                // Touching `fetched_at` of an image already kept keeps `gc` off it for its grace.
                try connection.execute(
                    """
                    INSERT INTO _media(hash, type, size, width, height, bytes, fetched_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (hash) DO UPDATE SET fetched_at = excluded.fetched_at
                    """,
                    [
                        .text(media.hash), .text(media.signature.format.mediaType), SQLValue(media.bytes.count),
                        SQLValue(media.signature.width), SQLValue(media.signature.height), .bytes(media.bytes),
                        .text(now),
                    ])
            }
            try connection.execute(
                """
                INSERT INTO _media_urls(feed, url, hash, etag, last_modified, checked_at, failures)
                VALUES (?, ?, ?, ?, ?, ?, 0)
                ON CONFLICT (feed, url) DO UPDATE SET
                    hash = coalesce(excluded.hash, _media_urls.hash), etag = excluded.etag,
                    last_modified = excluded.last_modified, checked_at = excluded.checked_at, failures = 0,
                    last_error = NULL, retry_at = NULL
                """,
                [
                    .text(feed), .text(url), SQLValue(media?.hash), SQLValue(validators.etag),
                    SQLValue(validators.lastModified), .text(now),
                ])
        }
    }

    /// Records a failed fetch of `url` for `feed`: one more failure, the error (redacted), and
    /// when to try again. A hash it had stays (the image already mirrored is still shown).
    package func recordMediaFailure(feed: String, url: String, error: String, retryAt: Date, at: Date) async throws {
        let (now, retry) = (Timestamp.string(at), Timestamp.string(retryAt))
        try await writeSQL { connection in
            _ = try connection.execute(
                """
                INSERT INTO _media_urls(feed, url, checked_at, failures, last_error, retry_at)
                VALUES (?, ?, ?, 1, ?, ?)
                ON CONFLICT (feed, url) DO UPDATE SET
                    checked_at = excluded.checked_at, failures = _media_urls.failures + 1,
                    last_error = excluded.last_error, retry_at = excluded.retry_at
                """, [.text(feed), .text(url), .text(now), .text(error), .text(retry)])
        }
    }

    /// Forgets `feed`'s URLs that its rows no longer name.
    package func forgetMediaURLs(feed: String, keeping urls: Set<String>) async throws {
        let gone = try await mediaURLs(feed: feed).keys.filter { !urls.contains($0) }
        guard !gone.isEmpty else { return }
        try await writeSQL { connection in
            for url in gone {
                try connection.execute("DELETE FROM _media_urls WHERE feed = ? AND url = ?", [.text(feed), .text(url)])
            }
        }
    }

    /// Removes images that no URL row names and that were not fetched since `cutoff`; returns
    /// how many and their bytes.
    package func collectMediaGarbage(olderThan cutoff: Date) async throws -> (count: Int, bytes: Int) {
        let before = Timestamp.string(cutoff)
        let unnamed = "fetched_at < ? AND NOT EXISTS (SELECT 1 FROM _media_urls u WHERE u.hash = _media.hash)"
        return try await writeSQL { connection in
            let totals = try connection.rows(
                "SELECT count(*), coalesce(sum(size), 0) FROM _media WHERE " + unnamed, [.text(before)]
            ).first
            try connection.execute("DELETE FROM _media WHERE " + unnamed, [.text(before)])
            func number(_ column: Int) -> Int { Int(totals?[column].integer ?? 0) }
            return (number(0), number(1))
        }
    }
}
