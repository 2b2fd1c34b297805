import Foundation

extension FetchResponse {
    /// The body parsed as JSON, numbers kept exact.
    ///
    /// - Parameter feed: the feed that asked for the response, for the error.
    /// - Throws: ``PayloadError`` at `$`, naming the feed, the URL, the line and column of the
    ///   problem, and whether the body looks like an HTML page, when the body is not JSON.
    public func json(feed: String) throws(PayloadError) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            let start = String(decoding: body.prefix(64), as: UTF8.self)
            let hint =
                start.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<")
                ? " (the body looks like HTML)" : ""
            throw PayloadError(feed: feed, url: url, path: "$", message: "\(error)\(hint)")
        }
    }
}
