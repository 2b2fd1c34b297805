import FeedKit
import Foundation

/// How a pass ended, as its run row in `_runs` keeps it, on every store; the pass's report is
/// derived from it (``FeedReport/init(feed:adapter:run:outcome:milliseconds:outbox:)``).
package struct RunOutcome: Sendable {
    package var status: FeedReport.Status
    package var counts: WriteCounts
    package var requests: Int
    package var attempts: Int
    package var bytes: Int
    /// Redacted.
    package var error: String?
    /// The report's notes (redacted).
    package var notes: [String]
    package var finished: Date
    /// The URLs served from the cache because the network failed (redacted).
    package var staleURLs: [String] = []
    /// The oldest of those responses' age, in seconds.
    package var oldestStaleAge: TimeInterval = 0

    /// What `_runs.notes` keeps, one per line: the report's notes, then one on the responses
    /// served from the cache (the report lists them in its own fields instead).
    package var recordedNotes: [String] {
        guard !staleURLs.isEmpty else { return notes }
        return notes + ["stale: \(staleURLs.count) response(s): " + FeedReport.summarize(staleURLs)]
    }

    package init(
        status: FeedReport.Status, counts: WriteCounts, requests: Int, attempts: Int, bytes: Int, error: String? = nil,
        notes: [String], finished: Date, staleURLs: [String] = [], oldestStaleAge: TimeInterval = 0
    ) {
        self.status = status
        self.counts = counts
        self.requests = requests
        self.attempts = attempts
        self.bytes = bytes
        self.error = error
        self.notes = notes
        self.finished = finished
        self.staleURLs = staleURLs
        self.oldestStaleAge = oldestStaleAge
    }
}
