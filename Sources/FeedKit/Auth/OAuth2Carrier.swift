/// What an ``OAuth2Session`` needs of whoever it sends requests for: a ``FeedPass`` during the
/// pass, or the engine's media mirror after it committed (whose requests for the feed's images
/// carry the same token, and whose renewal of it is kept in the feed's `_state` at once, since
/// a rotated refresh token is the only one the endpoint still accepts).
package protocol OAuth2Carrier: Sendable {
    /// Whether every response comes from the cache, so that no token is needed.
    var isOffline: Bool { get }
    /// Performs a request (the token endpoint's, or one carrying the token).
    func fetch(_ request: FetchRequest) async throws -> FetchResponse
    /// A line for the run's log.
    func log(_ text: String, level: FeedPass.LogLevel)
    /// The feed's `_state` value under `key`.
    func state(_ key: String) async throws -> String?
    /// Keeps `value` under `key` in the feed's `_state`.
    func setState(_ key: String, _ value: String?) async throws
}

extension FeedPass: OAuth2Carrier {}
