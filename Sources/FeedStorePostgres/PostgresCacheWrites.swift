import FeedKit
import FeedStore
import Foundation

/// The response cache's writes on PostgreSQL, in a pass's transaction
/// (``PostgresPassTransaction``): an entry and its body (`bytea`, deflated when that makes it
/// smaller, ``BodyCompression``) in one statement, several pages' responses at once.
extension PostgresStore {
    /// Stores a response for `feed`. Without a body, the entry only refreshes the row of its
    /// key (one that is gone stays gone).
    static func storeCache(_ write: CacheWrite, feed: String, in connection: PostgresConnection) throws {
        let (entry, compressed) = (write.entry, write.compressed)
        guard let body = entry.body else {
            try StoreResponseCache.refresh(entry, in: PostgresSQLConnection(connection: connection))
            return
        }
        // One statement, so one round trip to the server, for the entry and its body.
        try connection.execute(
            """
            WITH entry AS (
                INSERT INTO _http_cache(key, feed, url, status, headers, etag, last_modified, fetched_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (key) DO UPDATE SET feed = excluded.feed, url = excluded.url, status = excluded.status,
                    headers = excluded.headers, etag = excluded.etag, last_modified = excluded.last_modified,
                    fetched_at = excluded.fetched_at
                RETURNING key
            )
            INSERT INTO _http_cache_body(key, body, body_size) SELECT key, $9, $10 FROM entry
            ON CONFLICT (key) DO UPDATE SET body = excluded.body, body_size = excluded.body_size
            """,
            [
                entry.key, feed, entry.url, String(entry.status), write.headersJSON, entry.etag, entry.lastModified,
                Timestamp.string(entry.fetchedAt), Hex.bytea(compressed ?? body),
                compressed.map { _ in String(body.count) },
            ])
    }
}

extension PostgresStore {
    /// Stores responses with bodies for `feed`, as ``storeCache(_:feed:in:)`` does each, in one
    /// statement: the pass holds its pages' responses and sends them together, one round trip to
    /// the server for several pages. Their keys must differ (a row is changed once a statement).
    static func storeCaches(_ writes: [CacheWrite], feed: String, in connection: PostgresConnection) throws {
        guard writes.count > 1 else {
            if let write = writes.first { try storeCache(write, feed: feed, in: connection) }
            return
        }
        func array(_ value: (CacheWrite) -> String?) -> String { PostgresSQL.arrayLiteral(writes.map(value)) }
        try connection.execute(
            """
            WITH batch AS (
                SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::jsonb[], $6::text[], $7::text[],
                    $8::timestamptz[], $9::bytea[], $10::bigint[])
                    AS b(key, url, status, headers, etag, last_modified, fetched_at, body, body_size)
            ), entry AS (
                INSERT INTO _http_cache(key, feed, url, status, headers, etag, last_modified, fetched_at)
                SELECT key, $1::text, url, status, headers, etag, last_modified, fetched_at FROM batch
                ON CONFLICT (key) DO UPDATE SET feed = excluded.feed, url = excluded.url, status = excluded.status,
                    headers = excluded.headers, etag = excluded.etag, last_modified = excluded.last_modified,
                    fetched_at = excluded.fetched_at
                RETURNING key
            )
            INSERT INTO _http_cache_body(key, body, body_size) SELECT key, body, body_size FROM batch JOIN entry USING (key)
            ON CONFLICT (key) DO UPDATE SET body = excluded.body, body_size = excluded.body_size
            """,
            [
                feed, array(\.entry.key), array(\.entry.url), array { String($0.entry.status) }, array(\.headersJSON),
                array(\.entry.etag), array(\.entry.lastModified), array { Timestamp.string($0.entry.fetchedAt) },
                array { write in (write.compressed ?? write.entry.body).map(Hex.bytea) },
                array { write in write.compressed.map { _ in String(write.entry.body?.count ?? 0) } },
            ])
    }
}
