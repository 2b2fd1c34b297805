import FeedStore
import Foundation

extension FeedReport {
    /// The report of a feed's pass that ended with `outcome`: the one place a report is made,
    /// so the report says what `_runs` keeps (status, counts, requests, error and notes).
    ///
    /// - Parameters:
    ///   - run: the pass's `_runs.id`; `nil` when it never started (its feed's lease or run row
    ///     could not be had).
    ///   - milliseconds: how long the pass took, outbox delivery included.
    ///   - outbox: the events delivered after the pass, and those still waiting.
    init(
        feed: String, adapter: String, run: Int64?, outcome: RunOutcome, milliseconds: Int,
        outbox: (delivered: Int, pending: Int) = (0, 0)
    ) {
        self.init(
            feed: feed, adapter: adapter, run: run, status: outcome.status, counts: outcome.counts,
            requests: outcome.requests, attempts: outcome.attempts, bytes: outcome.bytes, milliseconds: milliseconds,
            staleURLs: outcome.staleURLs,
            staleAgeSeconds: outcome.staleURLs.isEmpty ? nil : Int(outcome.oldestStaleAge), error: outcome.error,
            notes: outcome.notes, outboxDelivered: outbox.delivered, outboxPending: outbox.pending)
    }
}
