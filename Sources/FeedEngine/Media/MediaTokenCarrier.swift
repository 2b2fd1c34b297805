import FeedKit

/// What the ``OAuth2Session`` of a feed's mirrored images sends through, after the pass
/// committed: the mirror's fetches (its size limit, no retry), the feed's committed `_state`,
/// and a renewed token kept there at once, in a transaction of its own
/// (``Store/recordCredentials(_:feed:)``).
struct MediaTokenCarrier: OAuth2Carrier {
    let store: Store
    let fetcher: any Fetching
    let context: FetchContext
    let feed: String

    var isOffline: Bool { false }

    func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        try await fetcher.fetch(request, context: context)
    }

    func log(_ text: String, level: FeedPass.LogLevel) {
        context.logger.log(text, at: level)
    }

    func state(_ key: String) async throws -> String? {
        try await store.state(feed: feed, key: key)
    }

    func setState(_ key: String, _ value: String?) async throws {
        try await store.recordCredentials([key: value], feed: feed)
    }
}
