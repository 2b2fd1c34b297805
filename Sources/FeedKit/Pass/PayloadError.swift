/// A response body that does not have the shape an adapter expects.
///
/// Names the feed, the URL (secrets redacted) and the JSON path (`$.fruit[3].price`), so the
/// user can find the bad value.
public struct PayloadError: Error, Sendable, CustomStringConvertible {
    /// The feed whose pass read the body.
    public var feed: String
    /// The response's URL, secrets replaced by `***`.
    public var url: String
    /// A JSONPath-like location: `$`, `$.data[0].price`.
    public var path: String
    /// What is wrong at ``path``, in words for the user.
    public var message: String

    /// An error about the value at `path` of the body from `url`, read by `feed`'s pass.
    public init(feed: String, url: String, path: String, message: String) {
        self.feed = feed
        self.url = url
        self.path = path
        self.message = message
    }

    /// The feed, the URL, the path and the message on one line, as `feedwork run` shows it.
    public var description: String { "feed '\(feed)': \(url) at \(path): \(message)" }
}
