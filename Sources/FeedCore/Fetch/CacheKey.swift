import Foundation

/// The `_http_cache` key of a request: the SHA-256 of its method, real URL and body, in hex.
///
/// The real URL (secrets included) goes into the hash so that requests differing only in a
/// secret do not share an entry, while the key itself reveals no secret.
public enum CacheKey {
    /// The key for `request`.
    public static func make(for request: FetchRequest) -> String {
        var bytes = Array(request.method.uppercased().utf8)
        bytes.append(0)
        bytes.append(contentsOf: request.url.utf8)
        bytes.append(0)
        if let body = request.body { bytes.append(contentsOf: body) }
        return SHA256.hexDigest(bytes)
    }
}
