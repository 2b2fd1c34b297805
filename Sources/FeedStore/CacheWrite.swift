import FeedKit
import Foundation

/// A response on its way into `_http_cache`, with what needs no store done on the pass's own
/// task rather than on the store's single writer thread: the body deflated and the headers
/// written as JSON.
package struct CacheWrite: Sendable {
    package let entry: CachedResponse
    /// The body deflated (``BodyCompression``), when that makes it smaller.
    package let compressed: Data?
    /// The headers as a JSON object of strings, names in order.
    package let headersJSON: String

    package init(_ entry: CachedResponse) {
        self.entry = entry
        compressed = entry.body.flatMap(BodyCompression.compress)
        let members = entry.headers.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }
        headersJSON = JSONValue.object(JSONObject(members)).jsonText
    }

    /// The headers of ``headersJSON``; an unreadable text reads as none (the entry is then
    /// revalidated without them).
    package static func headers(fromJSON text: String) -> [String: String] {
        guard case .object(let object)? = try? JSONParser.parse(text) else { return [:] }
        var headers: [String: String] = [:]
        for member in object.members {
            if case .string(let value) = member.value { headers[member.key] = value }
        }
        return headers
    }
}
