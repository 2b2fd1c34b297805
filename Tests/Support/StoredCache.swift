import FeedEngine
import FeedKit
import Foundation

/// What `_http_cache` holds once decompressed: leak tests scan these as well as the raw file
/// bytes, since a secret inside a zlib-compressed body is invisible to a byte search.
public enum StoredCache {
    /// Each cached response of the store at `storePath` as text: URL, headers, validators and the
    /// decompressed body (a body that no longer inflates is reported as such, so it cannot hide).
    public static func decompressedEntries(storePath: String) async throws -> [String] {
        let store = try StoreLocation(storePath).readingStore()
        var entries: [String] = []
        for row in try await store.query("SELECT key FROM _http_cache", arguments: []) {
            guard case .text(let key)? = row["key"] else { continue }
            guard let entry = try await store.cachedResponse(forKey: key, includingBody: true) else {
                entries.append("undecodable cache entry \(key)")
                continue
            }
            entries.append(
                [entry.url, "\(entry.headers)", entry.etag ?? "", entry.lastModified ?? ""].joined(separator: "\n")
                    + "\n" + String(decoding: entry.body ?? Data(), as: UTF8.self))
        }
        return entries
    }
}
