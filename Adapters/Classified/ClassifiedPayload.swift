import FeedKit

/// The top level of both responses: a JSON list.
enum ClassifiedPayload {
    /// The items of the list that `response`'s body must be.
    ///
    /// - Throws: ``PayloadError`` at `$` when the body is not JSON or not a list.
    static func list(in response: FetchResponse, feed: String) throws -> [JSONValue] {
        let document = try response.json(feed: feed)
        guard let items = document.arrayValue else {
            throw PayloadError(
                feed: feed, url: response.url, path: "$", message: "expected a list, found \(document.kindName)")
        }
        return items
    }
}
