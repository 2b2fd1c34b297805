import FeedKit

extension FeedReport {
    /// Whether a feed that depends on this one may run after it: not when this one failed,
    /// was interrupted or was skipped itself.
    var letsDependentsRun: Bool { ![.failed, .interrupted, .skipped].contains(status) }

    /// The report of `feed`, not run because `parent`, a feed it depends on, did not commit.
    static func skipped(_ feed: FeedConfig, because parent: FeedReport) -> FeedReport {
        FeedReport(
            feed: feed.name, adapter: feed.adapterName, run: nil, status: .skipped, counts: WriteCounts(),
            requests: 0, attempts: 0, bytes: 0, milliseconds: 0, staleURLs: [], staleAgeSeconds: nil, error: nil,
            notes: [
                "skipped: feed '\(parent.feed)', which it depends on, \(parent.status == .skipped ? "was skipped" : parent.status.rawValue); run them again once it succeeds"
            ],
            outboxDelivered: 0, outboxPending: 0)
    }
}
