import FeedKit
import Foundation

/// How a pass ended, as its run row in `_runs` keeps it, on every store.
struct RunOutcome: Sendable {
    var status: FeedReport.Status
    var counts: WriteCounts
    var requests: Int
    var attempts: Int
    var bytes: Int
    /// Redacted.
    var error: String?
    /// The report's notes, one per line (redacted).
    var notes: [String]
    var finished: Date
}
