import FeedKit
import FeedStore
import Foundation

/// `_http_cache` on PostgreSQL: the responses passes committed, for conditional requests and
/// offline runs. Bodies are `bytea` in `_http_cache_body`, deflated when that makes them smaller
/// (``BodyCompression``).
extension PostgresStore {
    package func cachedResponse(forKey key: String, includingBody: Bool) async throws -> CachedResponse? {
        let sql =
            includingBody
            ? "SELECT \(Self.cacheColumns), body, body_size FROM _http_cache JOIN _http_cache_body USING (key) WHERE key = $1"
            : "SELECT \(Self.cacheColumns) FROM _http_cache WHERE key = $1"
        return try await read { connection in
            let rows = try connection.execute(sql, [key])
            guard rows.count > 0 else { return nil }
            var entry = Self.cachedResponse(rows, row: 0)
            if includingBody {
                guard let stored = Hex.bytea(rows[0, 7] ?? "") else { return nil }
                entry.body = stored
                if let size = rows[0, 8].flatMap({ Int($0) }) {
                    // A body that no longer inflates is as good as no cache entry.
                    guard let inflated = BodyCompression.decompress(stored, size: size) else { return nil }
                    entry.body = inflated
                }
            }
            return entry
        }
    }

    package func cachedResponses(feed: String) async throws -> [String: CachedResponse] {
        try await read { connection in
            let rows = try connection.execute("SELECT \(Self.cacheColumns) FROM _http_cache WHERE feed = $1", [feed])
            var entries: [String: CachedResponse] = [:]
            for row in 0..<rows.count {
                let entry = Self.cachedResponse(rows, row: row)
                entries[entry.key] = entry
            }
            return entries
        }
    }

    package func holdsCachedResponses(besides feed: String) async throws -> Bool {
        try await read { connection in
            try connection.execute("SELECT EXISTS (SELECT 1 FROM _http_cache WHERE feed <> $1)", [feed])
                .first(column: 0) != "f"
        }
    }

    /// The columns of an entry but its body, times as Feedwork writes them.
    private static let cacheColumns =
        "key, url, status, headers::text, etag, last_modified, \(PostgresSQL.isoText("fetched_at"))"

    /// The entry of `row` of a result of ``cacheColumns``, without its body.
    private static func cachedResponse(_ rows: PostgresRows, row: Int) -> CachedResponse {
        // An unreadable time reads as long ago: the entry is revalidated, not trusted.
        CachedResponse(
            key: rows[row, 0] ?? "", url: rows[row, 1] ?? "", status: Int(rows[row, 2] ?? "") ?? 0,
            headers: CacheWrite.headers(fromJSON: rows[row, 3] ?? "{}"), etag: rows[row, 4],
            lastModified: rows[row, 5], fetchedAt: rows[row, 6].flatMap(Timestamp.date) ?? .distantPast, body: nil)
    }

    /// Stores a response for `feed`. Without a body, the entry only refreshes the row of its
    /// key (one that is gone stays gone).
    static func storeCache(_ write: CacheWrite, feed: String, in connection: PostgresConnection) throws {
        let (entry, compressed) = (write.entry, write.compressed)
        guard let body = entry.body else {
            try connection.execute(
                "UPDATE _http_cache SET fetched_at = $1, etag = $2, last_modified = $3 WHERE key = $4",
                [Timestamp.string(entry.fetchedAt), entry.etag, entry.lastModified, entry.key])
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

/// `bytea` in PostgreSQL's hex text form, `\x0a1b...`, both ways.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func bytea(_ data: Data) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        bytes.reserveCapacity(2 + data.count * 2)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func bytea(_ text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var data = Data(capacity: (utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }
}
