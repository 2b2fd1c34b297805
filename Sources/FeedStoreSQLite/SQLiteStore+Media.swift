import FeedStore
import Foundation
import GRDB

/// `_media` and `_media_urls` on SQLite: the images are BLOBs in the store file.
extension SQLiteStore: MediaStore {
    package func mediaReferences(feed: String, table: String, column: String) async throws -> Set<String> {
        let column = SQLIdentifier.quoted(column)
        let sql = """
            SELECT DISTINCT \(column) FROM \(SQLIdentifier.quoted(table))
            WHERE _feed = ? AND \(column) IS NOT NULL AND \(column) <> ''
            """
        return try await read { db in Set(try String.fetchAll(db, sql: sql, arguments: [feed])) }
    }

    package func mediaURLs(feed: String) async throws -> [String: MediaURLRecord] {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT url, hash, etag, last_modified, checked_at, failures, retry_at
                    FROM _media_urls WHERE feed = ?
                    """, arguments: [feed])
            var result: [String: MediaURLRecord] = [:]
            for row in rows {
                result[row["url"]] = MediaURLRecord(
                    hash: row["hash"], etag: row["etag"], lastModified: row["last_modified"],
                    checkedAt: (row["checked_at"] as String?).flatMap(Timestamp.date), failures: row["failures"],
                    retryAt: (row["retry_at"] as String?).flatMap(Timestamp.date))
            }
            return result
        }
    }

    package func recordMedia(_ media: FetchedMedia?, feed: String, url: String, validators: MediaValidators, at: Date)
        async throws
    {
        let now = Timestamp.string(at)
        try await write { db in
            if let media {
                // Touching `fetched_at` of an image already kept keeps `gc` off it for its grace.
                try db.execute(
                    sql: """
                        INSERT INTO _media(hash, type, size, width, height, bytes, fetched_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (hash) DO UPDATE SET fetched_at = excluded.fetched_at
                        """,
                    arguments: [
                        media.hash, media.signature.format.mediaType, media.bytes.count, media.signature.width,
                        media.signature.height, media.bytes, now,
                    ])
            }
            try db.execute(
                sql: """
                    INSERT INTO _media_urls(feed, url, hash, etag, last_modified, checked_at, failures)
                    VALUES (?, ?, ?, ?, ?, ?, 0)
                    ON CONFLICT (feed, url) DO UPDATE SET
                        hash = coalesce(excluded.hash, hash), etag = excluded.etag,
                        last_modified = excluded.last_modified, checked_at = excluded.checked_at, failures = 0,
                        last_error = NULL, retry_at = NULL
                    """,
                arguments: [feed, url, media?.hash, validators.etag, validators.lastModified, now])
        }
    }

    package func recordMediaFailure(feed: String, url: String, error: String, retryAt: Date, at: Date) async throws {
        let (now, retry) = (Timestamp.string(at), Timestamp.string(retryAt))
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO _media_urls(feed, url, checked_at, failures, last_error, retry_at)
                    VALUES (?, ?, ?, 1, ?, ?)
                    ON CONFLICT (feed, url) DO UPDATE SET
                        checked_at = excluded.checked_at, failures = failures + 1,
                        last_error = excluded.last_error, retry_at = excluded.retry_at
                    """, arguments: [feed, url, now, error, retry])
        }
    }

    package func forgetMediaURLs(feed: String, keeping urls: Set<String>) async throws {
        let known = try await mediaURLs(feed: feed).keys
        let gone = known.filter { !urls.contains($0) }
        guard !gone.isEmpty else { return }
        try await write { db in
            for url in gone {
                try db.execute(sql: "DELETE FROM _media_urls WHERE feed = ? AND url = ?", arguments: [feed, url])
            }
        }
    }

    package func media(hash: String) async throws -> StoredMedia? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT type, bytes FROM _media WHERE hash = ?", arguments: [hash]).map {
                StoredMedia(hash: hash, type: $0["type"], bytes: $0["bytes"])
            }
        }
    }

    package func mediaHashes(urls: [String]) async throws -> [String: String] {
        guard !urls.isEmpty else { return [:] }
        return try await read { db in
            var result: [String: String] = [:]
            for url in Set(urls) {
                if let hash = try String.fetchOne(
                    db,
                    sql: """
                        SELECT u.hash FROM _media_urls u JOIN _media m ON m.hash = u.hash
                        WHERE u.url = ? LIMIT 1
                        """, arguments: [url])
                {
                    result[url] = hash
                }
            }
            return result
        }
    }

    package func mediaSummaries() async throws -> [String: MediaSummary] {
        try await read { db in
            var result: [String: MediaSummary] = [:]
            let rows = try Row.fetchAll(db, sql: MediaSQL.summaries)
            for row in rows {
                result[row["feed"]] = MediaSummary(
                    referenced: row["referenced"], mirrored: row["mirrored"], failed: row["failed"],
                    bytes: row["bytes"] ?? 0)
            }
            return result
        }
    }

    package func collectMediaGarbage(olderThan cutoff: Date) async throws -> (count: Int, bytes: Int) {
        let before = Timestamp.string(cutoff)
        return try await write { db in
            let row = try Row.fetchOne(db, sql: MediaSQL.garbageTotals, arguments: [before])
            try db.execute(sql: MediaSQL.collectGarbage, arguments: [before])
            return (row?["count"] ?? 0, row?["bytes"] ?? 0)
        }
    }
}
