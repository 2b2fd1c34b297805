/// A record a pass rejected, as `_rejects` keeps it, for `feedwork rejects`.
public struct RejectRecord: Sendable, Hashable, Codable {
    /// The run that rejected it.
    public var run: Int64
    public var feed: String
    public var entity: String
    public var reason: String
    /// Where in the response the record was (`$.data.items[3].price`).
    public var path: String
    /// The URL of the response it came from (secrets as `***`), when known.
    public var url: String?
    /// The response's page within its pass (1-based), when known.
    public var page: Int?
    /// The record's JSON as received.
    public var raw: String

    package init(
        run: Int64, feed: String, entity: String, reason: String, path: String, url: String? = nil, page: Int? = nil,
        raw: String
    ) {
        self.run = run
        self.feed = feed
        self.entity = entity
        self.reason = reason
        self.path = path
        self.url = url
        self.page = page
        self.raw = raw
    }
}
