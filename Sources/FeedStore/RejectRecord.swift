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
}
