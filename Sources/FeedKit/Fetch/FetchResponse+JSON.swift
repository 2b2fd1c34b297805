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
            throw payloadError(error, feed: feed)
        }
    }

    /// The body parsed as JSON, each element of the array at `path` handed to `visit` as it is
    /// read instead of kept (``JSONParser/parse(_:visitingElementsAt:_:)``): the document with
    /// that array empty, and how many elements were handed over (`nil` when `path` led to no
    /// array).
    ///
    /// - Throws: ``PayloadError`` as ``json(feed:)`` does.
    public func json(feed: String, visitingElementsAt path: [String], _ visit: (Int, JSONValue) -> Void)
        throws(PayloadError) -> (document: JSONValue, visited: Int?)
    {
        do {
            return try JSONParser.parse(body, visitingElementsAt: path, visit)
        } catch {
            throw payloadError(error, feed: feed)
        }
    }

    private func payloadError(_ error: JSONParseError, feed: String) -> PayloadError {
        let start = String(decoding: body.prefix(64), as: UTF8.self)
        let hint =
            start.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<")
            ? " (the body looks like HTML)" : ""
        return PayloadError(feed: feed, url: url, path: "$", message: "\(error)\(hint)")
    }
}
