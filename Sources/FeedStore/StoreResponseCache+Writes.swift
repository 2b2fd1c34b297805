import FeedKit
import Foundation

/// `_http_cache` written by a pass (``PassWriter``): the responses it fetched, bodies in
/// `_http_cache_body`, deflated when that makes them smaller (``BodyCompression``).
extension StoreResponseCache {
    /// Stores responses with bodies for `feed`, in two statements whatever their number (a
    /// pass holds its pages' responses and stores them together). Their keys must differ: a
    /// statement changes a row once.
    package static func store(
        _ writes: some Collection<CacheWrite>, feed: String, in connection: any SQLConnection
    ) throws {
        guard !writes.isEmpty else { return }
        var entries: [SQLValue] = []
        var bodies: [SQLValue] = []
        for write in writes {
            let entry = write.entry
            entries += [
                .text(entry.key), .text(feed), .text(entry.url), .integer(Int64(entry.status)),
                .text(write.headersJSON), SQLValue(entry.etag), SQLValue(entry.lastModified),
                .text(Timestamp.string(entry.fetchedAt)),
            ]
            bodies += [
                .text(entry.key), .bytes(write.compressed ?? entry.body ?? Data()),
                SQLValue(write.compressed.map { _ in entry.body?.count ?? 0 }),
            ]
        }
        try connection.execute(
            """
            INSERT INTO _http_cache(key, feed, url, status, headers, etag, last_modified, fetched_at)
            VALUES \(SQLPlaceholders.rows(writes.count, width: 8))
            ON CONFLICT (key) DO UPDATE SET feed = excluded.feed, url = excluded.url, status = excluded.status,
                headers = excluded.headers, etag = excluded.etag, last_modified = excluded.last_modified,
                fetched_at = excluded.fetched_at
            """, entries)
        try connection.execute(
            """
            INSERT INTO _http_cache_body(key, body, body_size) VALUES \(SQLPlaceholders.rows(writes.count, width: 3))
            ON CONFLICT (key) DO UPDATE SET body = excluded.body, body_size = excluded.body_size
            """, bodies)
    }
}
