import FeedKit

/// The run history and the rejects of a store, for `feedwork runs` and `feedwork rejects`,
/// whichever database holds it.
public protocol StoreHistory: Sendable {
    /// The runs of `feed` (or of every feed) older than run `before` (when given), newest
    /// first, at most `limit` of them: a page of the history, by run id.
    func runs(feed: String?, before: Int64?, limit: Int) throws -> [RunRecord]
    /// The rejects of `feed` and of run `run` (each, when given), newest first, at most `limit`.
    func rejects(feed: String?, run: Int64?, limit: Int) throws -> [RejectRecord]
}

extension StoreHistory {
    /// The runs of `feed` (or of every feed), newest first, at most `limit` of them.
    public func runs(feed: String?, limit: Int) throws -> [RunRecord] {
        try runs(feed: feed, before: nil, limit: limit)
    }
}
