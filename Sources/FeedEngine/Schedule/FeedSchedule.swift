import FeedKit
import Foundation

/// When `feedwork worker` runs a feed: every so often or at the times of a cron expression,
/// and sooner after a failure.
///
/// ```yaml
/// defaults: { every: 1h, jitter: 10%, retry_failed_after: 5m }
/// feeds:
///   - name: rates
///     every: 15m               # at its own offset in the quarter hour (spread: true)
///   - name: currencies
///     cron: "0 6 * * *"        # 06:00 UTC every day
/// ```
///
/// A feed's own keys replace those of `defaults:` (a feed with `cron:` ignores the default
/// `every:`). A feed with neither is left to `feedwork run`.
///
/// Feeds with one `every:` are spread over it (``offset``), so that 1,000 of them do not come
/// due in the same second.
public struct FeedSchedule: Sendable, Hashable, CustomStringConvertible {
    /// How often, or when.
    public enum Timing: Sendable, Hashable {
        /// A pass every this long, counted from the time the previous one was due.
        case every(FeedDuration)
        /// A pass at each time the expression matches (UTC).
        case cron(CronExpression)
    }

    public var timing: Timing
    /// Up to this share of `every` (0 to 1) at random: with an ``offset``, how late after its
    /// slot each pass is due; without, added to each wait (so the rhythm drifts).
    public var jitter: Double
    /// After a failed pass, the next one is due this long after it ended (when sooner than the
    /// schedule's next time).
    public var retryFailedAfter: FeedDuration?
    /// Where an `every:` feed's passes fall in their interval (`spread: true`, the default):
    /// this long after each whole multiple of the interval since 1970-01-01 00:00 UTC, its
    /// slots. ``offset(ofFeed:every:)`` makes it from the feed's name, so feeds with one
    /// interval are spread over it, and a feed keeps its slots across restarts and machines.
    /// `nil` (`spread: false`), and for a `cron:` schedule, which is not spread: a feed that
    /// never ran is due at once, and `every` counts from then.
    public var offset: FeedDuration?

    public init(
        timing: Timing, jitter: Double = 0, retryFailedAfter: FeedDuration? = nil, offset: FeedDuration? = nil
    ) {
        self.timing = timing
        self.jitter = jitter
        self.retryFailedAfter = retryFailedAfter
        self.offset = offset
    }

    /// The offset in `every` of the feed named `name` (from 0 to `every` less 1 ms): a stable
    /// hash of its name (FNV-1a 64 of its UTF-8 bytes, mixed), the same share of any interval,
    /// whatever the process, machine or version.
    public static func offset(ofFeed name: String, every: FeedDuration) -> FeedDuration {
        ScheduleSlots.offset(ofFeed: name, every: every)
    }

    /// When a feed that has not run under this worker is first due.
    ///
    /// With an ``offset`` (spread): a feed that never ran at its first slot from `now`, within
    /// one interval, so that feeds planned together are spread from their first pass. A feed
    /// that ran at its first slot at least half an interval (less the ``jitter`` share) after
    /// its last start: one that ran on its slot keeps it, one brought onto its slots never runs
    /// again much sooner than its interval; when that slot has passed (the feed is overdue), at
    /// its first slot from `now`: slots missed while no worker ran are skipped, as ``nextDue``
    /// skips those missed while a pass ran, so 1,000 overdue feeds do not all run at once either.
    ///
    /// Without: at once when it never ran or its last pass started a whole period ago (or
    /// before the cron time that followed it), else when that period ends.
    public func firstDue(lastStarted: Date?, now: Date) -> Date {
        if let slots {
            let first = slots.first(atOrAfter: now)
            guard let lastStarted else { return first }
            return max(first, slots.first(after: lastStarted.addingTimeInterval(slotGap)))
        }
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
    /// With `every` and an ``offset``, the next time is the first slot at least half an
    /// interval (less the ``jitter`` share) after `due`, plus jitter drawn for this pass: on
    /// its slots, the feed keeps them (a jittered pass does not move the next one); off them (a
    /// retry, a time planned before spreading), it goes back onto them. Without an offset, it
    /// is `due + every` (plus jitter). Either way passes keep their rhythm whatever they last;
    /// times already past are skipped, never caught up in a burst. With `cron`, it is the first
    /// matching minute after `ended`.
    ///
    /// - Parameter random: a number from 0 to 1, for the jitter.
    public func nextDue(after due: Date, ended: Date, failed: Bool, random: Double) -> Date {
        var next: Date
        switch timing {
        case .every(let interval):
            if let slots {
                let delay = interval.seconds * jitter * random
                let slot = max(
                    slots.first(after: due.addingTimeInterval(slotGap)),
                    slots.first(atOrAfter: ended.addingTimeInterval(-delay)))
                next = slot.addingTimeInterval(delay)
            } else {
                let wait = interval.seconds * (1 + jitter * random)
                next = due.addingTimeInterval(wait)
                if next < ended {
                    // Late: the next slot after now, in the same rhythm.
                    let behind = ended.timeIntervalSince(due)
                    next = due.addingTimeInterval((behind / interval.seconds).rounded(.down) * interval.seconds + wait)
                }
            }
        case .cron(let expression):
            next = expression.next(after: ended) ?? .distantFuture
        }
        if failed, let retry = retryFailedAfter {
            next = min(next, ended.addingTimeInterval(retry.seconds))
        }
        return next
    }

    /// The slots of a spread `every:` schedule, `nil` for the rest.
    private var slots: ScheduleSlots? {
        guard case .every(let interval) = timing, let offset else { return nil }
        return ScheduleSlots(every: interval, offset: offset)
    }

    /// How long after a pass's due time (or a feed's last start) its next slot is looked for:
    /// half an interval less the jitter share, so that a pass due up to its jitter after its
    /// slot still counts as on it.
    private var slotGap: TimeInterval {
        guard case .every(let interval) = timing else { return 0 }
        return interval.seconds * max(0, 0.5 - jitter)
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
