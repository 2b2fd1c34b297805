import FeedKit
import Foundation
import Yams

/// The schedule keys of `defaults:` and of each feed, as written: `every`, `cron`, `jitter`,
/// `retry_failed_after`. Their ranges are checked by ``RequestLimits``, their combinations by
/// ``problems(in:file:)``, and ``schedule(over:)`` makes a feed's ``FeedSchedule``.
struct ScheduleSettings: Decodable, Sendable {
    var every: FeedDuration?
    var cron: CronExpression?
    /// A share from 0 to 1.
    var jitter: Double?
    var retryFailedAfter: FeedDuration?

    static let keys: Set<String> = ["every", "cron", "jitter", "retry_failed_after"]

    enum CodingKeys: String, CodingKey {
        case every, cron, jitter
        case retryFailedAfter = "retry_failed_after"
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        every = try container.decodeIfPresent(FeedDuration.self, forKey: .every)
        cron = try container.decodeIfPresent(CronExpression.self, forKey: .cron)
        retryFailedAfter = try container.decodeIfPresent(FeedDuration.self, forKey: .retryFailedAfter)
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

    /// The feed's schedule: its own timing (`every` or `cron`) or else the defaults', with its
    /// own `jitter` and `retry_failed_after` or else the defaults'. `nil` when neither has a
    /// timing.
    func schedule(over defaults: ScheduleSettings?) -> FeedSchedule? {
        let ownTiming = every.map(FeedSchedule.Timing.every) ?? cron.map(FeedSchedule.Timing.cron)
        let defaultTiming =
            defaults?.every.map(FeedSchedule.Timing.every) ?? defaults?.cron.map(FeedSchedule.Timing.cron)
        guard let timing = ownTiming ?? defaultTiming else { return nil }
        var jitter = jitter ?? defaults?.jitter ?? 0
        if case .cron = timing { jitter = 0 }
        return FeedSchedule(
            timing: timing, jitter: jitter, retryFailedAfter: retryFailedAfter ?? defaults?.retryFailedAfter)
    }

    /// Keys that contradict each other in one block: `every` with `cron`, `jitter` with `cron`.
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
        }
        return problems
    }
}
