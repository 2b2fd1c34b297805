import FeedKit
import Foundation

/// How a pass ended, as its run row in `_runs` keeps it, on every store; the pass's report is
/// derived from it (``FeedReport/init(feed:adapter:run:outcome:milliseconds:outbox:)``).
struct RunOutcome: Sendable {
    var status: FeedReport.Status
    var counts: WriteCounts
    var requests: Int
    var attempts: Int
    var bytes: Int
    /// Redacted.
    var error: String?
    /// The report's notes (redacted).
    var notes: [String]
    var finished: Date
    /// The URLs served from the cache because the network failed (redacted).
    var staleURLs: [String] = []
    /// The oldest of those responses' age, in seconds.
    var oldestStaleAge: TimeInterval = 0

    /// What `_runs.notes` keeps, one per line: the report's notes, then one on the responses
    /// served from the cache (the report lists them in its own fields instead).
    var recordedNotes: [String] {
        guard !staleURLs.isEmpty else { return notes }
        return notes + ["stale: \(staleURLs.count) response(s): " + FeedReport.summarize(staleURLs)]
    }
}
