import FeedKit
import Foundation

/// How many of a feed's rows a `replace` pass may delete before the pass fails
/// (`max_delete_ratio`, `allow_empty`), so that an API answering with nothing, or with a
/// fraction of its records, does not empty a feed by accident.
///
/// Checked per `replace` entity once the pass's rows not delivered again are deleted, inside
/// the pass's transaction: a pass over the limit fails like any failed pass, and the rows stay
/// as they were. The rows a pass deletes on purpose (`delete_when:`, ``FeedKit/FeedPass/delete(entity:keys:)``)
/// are not counted. An entity the pass left without a row needs `allow_empty: true` whatever the
/// ratio; otherwise the rows deleted may be at most `max_delete_ratio` of those the feed held.
package enum DeleteLimit {
    /// `max_delete_ratio` when the config does not set it.
    package static let defaultRatio = 0.5

    /// Throws for the first entity of `tallies` whose deletions the limits do not allow.
    package static func check(
        _ tallies: [ReplaceTally], maxRatio: Double, allowsEmpty: Bool, feed: String
    ) throws(DeleteLimitError) {
        for tally in tallies where tally.held > 0 && tally.undelivered > 0 {
            if tally.delivered == 0 {
                guard allowsEmpty else {
                    throw DeleteLimitError(feed: feed, tally: tally, maxRatio: maxRatio, emptied: true)
                }
                continue
            }
            if Double(tally.undelivered) / Double(tally.held) > maxRatio {
                throw DeleteLimitError(feed: feed, tally: tally, maxRatio: maxRatio, emptied: false)
            }
        }
    }
}

/// What a `replace` pass did to one entity's rows of its feed: an entity writer's counts, read
/// the same on every store.
package struct ReplaceTally: Sendable, Equatable {
    package var entity: String
    /// The feed's rows of the entity before the pass.
    package var held: Int
    /// The records the pass delivered (new, updated or unchanged).
    package var delivered: Int
    /// The rows deleted because the pass did not deliver them again.
    package var undelivered: Int

    package init(entity: String, held: Int, delivered: Int, undelivered: Int) {
        self.entity = entity
        self.held = held
        self.delivered = delivered
        self.undelivered = undelivered
    }
}

/// A `replace` pass that would delete more of a feed's rows than `max_delete_ratio` allows, or
/// all of them without `allow_empty: true`.
public struct DeleteLimitError: Error, Sendable, CustomStringConvertible {
    public var feed: String
    public var entity: String
    public var deleted: Int
    /// The feed's rows of the entity before the pass.
    public var held: Int
    public var maxRatio: Double
    /// Whether the pass left the entity without a row.
    public var emptied: Bool

    package init(feed: String, tally: ReplaceTally, maxRatio: Double, emptied: Bool) {
        self.feed = feed
        entity = tally.entity
        deleted = tally.undelivered
        held = tally.held
        self.maxRatio = maxRatio
        self.emptied = emptied
    }

    /// `feed 'items': the pass delivered no item and would delete all 3 of its rows (replace);
    /// nothing was changed (allow_empty: true allows a pass that empties the feed)`
    public var description: String {
        if emptied {
            return
                "feed '\(feed)': the pass delivered no \(entity) and would delete all \(held) of its rows (replace); nothing was changed (allow_empty: true allows a pass that empties the feed)"
        }
        var percent = String(format: "%.1f", Double(deleted) * 100 / Double(held))
        if percent.hasSuffix(".0") { percent.removeLast(2) }
        return
            "feed '\(feed)': the pass would delete \(deleted) of the \(held) \(entity) rows (\(percent)%, replace), above max_delete_ratio \(String(format: "%g", maxRatio)); nothing was changed (a higher max_delete_ratio allows it)"
    }
}
