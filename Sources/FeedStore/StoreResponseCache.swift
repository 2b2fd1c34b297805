import FeedKit
import Foundation

/// `_http_cache` read back, written once for every driver: the responses passes committed, for
/// conditional requests and offline runs, their bodies in `_http_cache_body` (deflated when that
/// makes them smaller, ``BodyCompression``). A pass reads an entry for each of its pages, or its
/// feed's entries at once (the engine's `PassResponseCache`).
extension StoreReading {
    /// The cached response for `key`, or `nil`. Without `includingBody`, its body is left out
    /// (`nil`), which spares reading (and inflating) it.
    package func cachedResponse(forKey key: String, includingBody: Bool) async throws -> CachedResponse? {
        let columns = StoreResponseCache.columns(dialect)
        let sql =
            includingBody
            ? "SELECT \(columns), body, body_size FROM _http_cache JOIN _http_cache_body USING (key) WHERE key = ?"
            : "SELECT \(columns) FROM _http_cache WHERE key = ?"
        // Once per page of a pass: one statement, without a transaction around it.
        return try await readOneSQL { connection in
            guard let row = try connection.rows(sql, [.text(key)]).first else { return nil }
            var entry = StoreResponseCache.entry(row)
            if includingBody {
                guard let stored = row[7].data else { return nil }
                entry.body = stored
                if let size = row[8].integer {
                    // A body that no longer inflates is as good as no cache entry.
                    guard let inflated = BodyCompression.decompress(stored, size: Int(size)) else { return nil }
                    entry.body = inflated
                }
            }
            return entry
        }
    }

    /// The cached response for `key`, body included, or `nil`.
    package func cachedResponse(forKey key: String) async throws -> CachedResponse? {
        try await cachedResponse(forKey: key, includingBody: true)
    }

    /// The entries `feed` stored in the response cache, by key, without their bodies.
    package func cachedResponses(feed: String) async throws -> [String: CachedResponse] {
        let sql = "SELECT \(StoreResponseCache.columns(dialect)) FROM _http_cache WHERE feed = ?"
        return try await readOneSQL { connection in
            var entries: [String: CachedResponse] = [:]
            for row in try connection.rows(sql, [.text(feed)]) {
                let entry = StoreResponseCache.entry(row)
                entries[entry.key] = entry
            }
            return entries
        }
    }

    /// Whether the response cache holds an entry stored by a feed other than `feed`.
    package func holdsCachedResponses(besides feed: String) async throws -> Bool {
        try await readOneSQL { connection in
            try !connection.rows("SELECT 1 FROM _http_cache WHERE feed <> ? LIMIT 1", [.text(feed)]).isEmpty
        }
    }
}

/// The response cache's rows: the columns of an entry and the entry a row of them reads as, and
/// the writes of a pass's transaction (the refresh here, the responses with bodies in `+Writes`).
package enum StoreResponseCache {
    /// Refreshes the time and validators of the stored entry of `entry`'s key, as a response
    /// without a body (304 Not Modified) does: an entry that is gone stays gone.
    package static func refresh(_ entry: CachedResponse, in connection: any SQLConnection) throws {
        try connection.execute(
            "UPDATE _http_cache SET fetched_at = ?, etag = ?, last_modified = ? WHERE key = ?",
            [
                .text(Timestamp.string(entry.fetchedAt)), SQLValue(entry.etag), SQLValue(entry.lastModified),
                .text(entry.key),
            ])
    }

    /// The columns of an entry but its body, its time as ISO 8601 text.
    static func columns(_ dialect: any SQLDialect) -> String {
        "key, url, status, headers, etag, last_modified, \(dialect.timestampText("fetched_at"))"
    }

    /// The entry of a row of ``columns(_:)``, without its body.
    static func entry(_ row: [SQLValue]) -> CachedResponse {
        // An unreadable time reads as long ago: the entry is revalidated, not trusted.
        CachedResponse(
            key: row[0].text ?? "", url: row[1].text ?? "", status: Int(row[2].integer ?? 0),
            headers: CacheWrite.headers(fromJSON: row[3].text ?? "{}"), etag: row[4].text,
            lastModified: row[5].text, fetchedAt: row[6].text.flatMap(Timestamp.date) ?? .distantPast, body: nil)
    }
}
