import FeedKit
import Foundation

/// Secrets in what `_http_cache` keeps: an API may repeat a key in its responses (an `access_key`
/// in every `next` link, a token in a `Link` header). Cached bodies and headers are sealed
/// (``Redactor/seal(_:)-(String)``) before they are compressed and stored, so no secret reaches
/// the store, and unsealed when they are read back, so a page served from the cache (a 304, a
/// stale fallback, `--offline`) still leads to the real next page.
extension Redactor {
    /// `entry` with every secret in its body, headers and validators replaced by its
    /// placeholder (`***` when its variable is unknown).
    func seal(_ entry: CachedResponse) -> CachedResponse {
        guard !secrets.isEmpty else { return entry }
        var entry = entry
        entry.body = entry.body.map { seal($0) }
        entry.headers = entry.headers.mapValues { seal($0) }
        entry.etag = entry.etag.map { seal($0) }
        entry.lastModified = entry.lastModified.map { seal($0) }
        return entry
    }

    /// `entry` as it was before ``seal(_:)-(CachedResponse)``, given the same variables.
    func unseal(_ entry: CachedResponse) -> CachedResponse {
        guard !placeholders.isEmpty else { return entry }
        var entry = entry
        entry.body = entry.body.map { unseal($0) }
        entry.headers = entry.headers.mapValues { unseal($0) }
        entry.etag = entry.etag.map { unseal($0) }
        entry.lastModified = entry.lastModified.map { unseal($0) }
        return entry
    }

    /// `data` with every secret replaced by its placeholder, byte for byte (a body need not be
    /// UTF-8).
    func seal(_ data: Data) -> Data {
        guard !secrets.isEmpty else { return data }
        var result = data
        for secret in secrets {
            result = Self.replacing(Data(secret.utf8), with: Data((placeholders[secret] ?? "***").utf8), in: result)
        }
        return result
    }

    /// `data` with the placeholders of ``seal(_:)-(Data)`` replaced by the secrets.
    func unseal(_ data: Data) -> Data {
        guard !placeholders.isEmpty, data.range(of: Data("${".utf8)) != nil else { return data }
        var result = data
        for (secret, placeholder) in placeholders {
            result = Self.replacing(Data(placeholder.utf8), with: Data(secret.utf8), in: result)
        }
        return result
    }

    static func replacing(_ target: Data, with replacement: Data, in data: Data) -> Data {
        guard !target.isEmpty, var found = data.range(of: target) else { return data }
        var output = Data()
        output.reserveCapacity(data.count)
        var start = data.startIndex
        while true {
            output.append(data[start..<found.lowerBound])
            output.append(replacement)
            start = found.upperBound
            guard let next = data.range(of: target, in: start..<data.endIndex) else { break }
            found = next
        }
        output.append(data[start..<data.endIndex])
        return output
    }
}
