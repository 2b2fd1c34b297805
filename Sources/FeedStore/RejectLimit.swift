import FeedKit
import Foundation

/// How many of a pass's records may be rejected before the pass fails (`max_reject_ratio`).
///
/// The ratio is rejected / (delivered + rejected), where delivered records are those inserted,
/// updated or unchanged (a key delivered twice counts once). A pass above the limit fails like
/// any other failed pass: nothing it wrote is committed, its rejects included. A pass with no
/// records and no rejects is within any limit.
package enum RejectLimit {
    /// `max_reject_ratio` when the config does not set it.
    package static let defaultRatio = 0.5

    /// Throws when `counts` reject more than `maxRatio` of the pass's records.
    ///
    /// - Parameter firstReject: the pass's first reject, named in the message as an example.
    package static func check(
        _ counts: WriteCounts, maxRatio: Double, feed: String, firstReject: Reject?
    ) throws(RejectLimitError) {
        let total = counts.inserted + counts.updated + counts.unchanged + counts.rejected
        guard total > 0, Double(counts.rejected) / Double(total) > maxRatio else { return }
        throw RejectLimitError(
            feed: feed, rejected: counts.rejected, total: total, maxRatio: maxRatio, example: firstReject)
    }
}

/// A pass that rejected more of its records than `max_reject_ratio` allows.
public struct RejectLimitError: Error, Sendable, CustomStringConvertible {
    public var feed: String
    public var rejected: Int
    /// Records delivered plus rejected.
    public var total: Int
    public var maxRatio: Double
    /// The pass's first reject (reason redacted), to show what went wrong.
    public var example: Reject?

    /// `feed 'items': 250 of 250 records rejected (100%), above max_reject_ratio 0.5 (first: PATH: REASON); nothing was changed`
    public var description: String {
        var percent = String(format: "%.1f", Double(rejected) * 100 / Double(total))
        if percent.hasSuffix(".0") { percent.removeLast(2) }
        var text =
            "feed '\(feed)': \(rejected) of \(total) records rejected (\(percent)%), above max_reject_ratio \(String(format: "%g", maxRatio))"
        if let example { text += " (first: \(example.path): \(example.reason))" }
        return text + "; nothing was changed"
    }
}
