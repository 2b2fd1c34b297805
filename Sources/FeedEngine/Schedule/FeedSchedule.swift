import FeedKit
import Foundation

/// When `feedwork worker` runs a feed: every so often or at the times of a cron expression,
/// and sooner after a failure.
///
/// ```yaml
/// defaults: { every: 1h, jitter: 10%, retry_failed_after: 5m }
/// feeds:
///   - name: rates
///     every: 15m
///   - name: currencies
///     cron: "0 6 * * *"        # 06:00 UTC every day
/// ```
///
/// A feed's own keys replace those of `defaults:` (a feed with `cron:` ignores the default
/// `every:`). A feed with neither is left to `feedwork run`.
public struct FeedSchedule: Sendable, Hashable, CustomStringConvertible {
    /// How often, or when.
    public enum Timing: Sendable, Hashable {
        /// A pass every this long, counted from the time the previous one was due.
        case every(FeedDuration)
        /// A pass at each time the expression matches (UTC).
        case cron(CronExpression)
    }

    public var timing: Timing
    /// Up to this share of `every` (0 to 1) added to each wait at random, so feeds with one
    /// interval spread out instead of hitting their servers together.
    public var jitter: Double
    /// After a failed pass, the next one is due this long after it ended (when sooner than the
    /// schedule's next time).
    public var retryFailedAfter: FeedDuration?

    public init(timing: Timing, jitter: Double = 0, retryFailedAfter: FeedDuration? = nil) {
        self.timing = timing
        self.jitter = jitter
        self.retryFailedAfter = retryFailedAfter
    }

    /// When a feed that has not run under this worker is first due: at once when it never ran
    /// or its last pass started a whole period ago (or before the cron time that followed it),
    /// else when that period ends.
    public func firstDue(lastStarted: Date?, now: Date) -> Date {
        guard let lastStarted else { return now }
        let due =
            switch timing {
            case .every(let interval): lastStarted.addingTimeInterval(interval.seconds)
            case .cron(let expression): expression.next(after: lastStarted) ?? now
            }
        return max(now, due)
    }

    /// When the next pass is due after one that was due at `due` and ended at `ended`.
    ///
    /// With `every`, the next time is `due + every` (plus jitter), so passes keep their rhythm
    /// whatever they last; times already past are skipped, never caught up in a burst. With
    /// `cron`, it is the first matching minute after `ended`.
    ///
    /// - Parameter random: a number from 0 to 1, for the jitter.
    public func nextDue(after due: Date, ended: Date, failed: Bool, random: Double) -> Date {
        var next: Date
        switch timing {
        case .every(let interval):
            let wait = interval.seconds * (1 + jitter * random)
            next = due.addingTimeInterval(wait)
            if next < ended {
                // Late: the next slot after now, in the same rhythm.
                let behind = ended.timeIntervalSince(due)
                next = due.addingTimeInterval((behind / interval.seconds).rounded(.down) * interval.seconds + wait)
            }
        case .cron(let expression):
            next = expression.next(after: ended) ?? .distantFuture
        }
        if failed, let retry = retryFailedAfter {
            next = min(next, ended.addingTimeInterval(retry.seconds))
        }
        return next
    }

    public var description: String {
        var text =
            switch timing {
            case .every(let interval): "every \(interval)"
            case .cron(let expression): "cron \(expression)"
            }
        if jitter > 0 { text += " (jitter \(Int((jitter * 100).rounded()))%)" }
        return text
    }
}
