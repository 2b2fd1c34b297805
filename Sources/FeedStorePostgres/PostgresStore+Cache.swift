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
