import FeedKit
import FeedStore
import Foundation
import GRDB

/// `_http_cache` read back (bodies from `_http_cache_body`): an entry by key for every page of a
/// pass, or a feed's entries at once (``PassResponseCache``).
extension SQLiteStore {
    package func cachedResponse(forKey key: String, includingBody: Bool) async throws -> CachedResponse? {
        // One statement, prepared once per connection, and no transaction around it (a single
        // SELECT reads one snapshot of its own).
        let sql =
            includingBody
            ? "SELECT \(Self.cacheColumns), body, body_size FROM _http_cache JOIN _http_cache_body USING (key) WHERE key = ?"
            : "SELECT \(Self.cacheColumns) FROM _http_cache WHERE key = ?"
        return try await readOneStatement { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [key]) else { return nil }
            var entry = Self.cachedResponse(row)
            if includingBody {
                let stored: Data = row["body"]
                entry.body = stored
                if let size: Int = row["body_size"] {
                    // A body that no longer inflates is as good as no cache entry.
                    guard let inflated = BodyCompression.decompress(stored, size: size) else { return nil }
                    entry.body = inflated
                }
            }
            return entry
        }
    }

    package func cachedResponses(feed: String) async throws -> [String: CachedResponse] {
        try await readOneStatement { db in
            var entries: [String: CachedResponse] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.cacheColumns) FROM _http_cache WHERE feed = ?", arguments: [feed])
            while let row = try rows.next() {
                let entry = Self.cachedResponse(row)
                entries[entry.key] = entry
            }
            return entries
        }
    }

    package func holdsCachedResponses(besides feed: String) async throws -> Bool {
        try await readOneStatement { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM _http_cache WHERE feed <> ?)", arguments: [feed])
                ?? true
        }
    }

    /// The columns of an entry but its body.
    private static let cacheColumns = "key, url, status, headers, etag, last_modified, fetched_at"

    /// The entry of a row of ``cacheColumns``, without its body.
    private static func cachedResponse(_ row: Row) -> CachedResponse {
        // An unreadable time reads as long ago: the entry is revalidated, not trusted.
        CachedResponse(
            key: row["key"], url: row["url"], status: row["status"],
            headers: CacheWrite.headers(fromJSON: row["headers"]),
            etag: row["etag"], lastModified: row["last_modified"],
            fetchedAt: Timestamp.date(row["fetched_at"]) ?? .distantPast,
            body: nil)
    }
}
