import FeedKit
import Foundation
import Yams

/// The schedule keys of `defaults:` and of each feed, as written: `every`, `cron`, `jitter`,
/// `spread`, `retry_failed_after`. Their ranges are checked by ``RequestLimits``, their
/// combinations by ``problems(in:file:)``, and ``schedule(over:feed:)`` makes a feed's
/// ``FeedSchedule``.
struct ScheduleSettings: Decodable, Sendable {
    var every: FeedDuration?
    var cron: CronExpression?
    /// A share from 0 to 1.
    var jitter: Double?
    /// Whether `every:` feeds are spread over their interval (``FeedSchedule/offset``); `true`
    /// when neither the feed nor the defaults say.
    var spread: Bool?
    var retryFailedAfter: FeedDuration?

    static let keys: Set<String> = ["every", "cron", "jitter", "spread", "retry_failed_after"]

    enum CodingKeys: String, CodingKey {
        case every, cron, jitter, spread
        case retryFailedAfter = "retry_failed_after"
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        every = try container.decodeIfPresent(FeedDuration.self, forKey: .every)
        cron = try container.decodeIfPresent(CronExpression.self, forKey: .cron)
        retryFailedAfter = try container.decodeIfPresent(FeedDuration.self, forKey: .retryFailedAfter)
        spread = try container.decodeIfPresent(Bool.self, forKey: .spread)
        if container.contains(.jitter) {
            let text = try container.decode(String.self, forKey: .jitter)
            guard let share = Self.share(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .jitter, in: container,
                    debugDescription: "jitter must be a percentage from 0% to 100% (e.g. 10%), not '\(text)'")
            }
            jitter = share
        }
    }

    /// `10%` as 0.1; a bare number from 0 to 1 is taken as the share itself.
    static func share(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        if trimmed.hasSuffix("%") {
            guard let percent = Double(trimmed.dropLast().trimmingSpaces),
                (0...100).contains(percent)
            else { return nil }
            return percent / 100
        }
        guard let share = Double(trimmed), (0...1).contains(share) else { return nil }
        return share
    }

    /// The schedule of the feed named `feed`: its own timing (`every` or `cron`) or else the
    /// defaults', with its own `jitter`, `spread` and `retry_failed_after` or else the
    /// defaults'; an `every` spread (the default) has the feed's offset. `nil` when neither has
    /// a timing.
    func schedule(over defaults: ScheduleSettings?, feed: String) -> FeedSchedule? {
        let ownTiming = every.map(FeedSchedule.Timing.every) ?? cron.map(FeedSchedule.Timing.cron)
        let defaultTiming =
            defaults?.every.map(FeedSchedule.Timing.every) ?? defaults?.cron.map(FeedSchedule.Timing.cron)
        guard let timing = ownTiming ?? defaultTiming else { return nil }
        var schedule = FeedSchedule(timing: timing, retryFailedAfter: retryFailedAfter ?? defaults?.retryFailedAfter)
        if case .every(let interval) = timing {
            schedule.jitter = jitter ?? defaults?.jitter ?? 0
            if spread ?? defaults?.spread ?? true {
                schedule.offset = FeedSchedule.offset(ofFeed: feed, every: interval)
            }
        }
        return schedule
    }

    /// Keys that contradict each other in one block: `every` with `cron`; `jitter` or `spread`
    /// with `cron`.
    static func problems(in mapping: Node.Mapping, file: String) -> [ConfigProblem] {
        func location(_ key: String) -> SourceLocation? {
            mapping.first { $0.key.scalar?.string == key }.map { SourceLocation(file: file, mark: $0.key.mark) }
        }
        var problems: [ConfigProblem] = []
        if let cron = location("cron") {
            if location("every") != nil {
                problems.append(
                    ConfigProblem("give either 'every' or 'cron', not both: a feed has one schedule", at: cron))
            }
            if let jitter = location("jitter") {
                problems.append(
                    ConfigProblem("'jitter' spreads 'every' schedules; a cron schedule runs at its times", at: jitter))
            }
            if let spread = location("spread") {
                problems.append(
                    ConfigProblem(
                        "'spread' places 'every' schedules in their interval; a cron schedule runs at its times",
                        at: spread))
            }
        }
        return problems
    }
}
