import Foundation

/// A feed to put on the board (``Store/plan(_:overdueBefore:)``).
package struct PlannedFeed: Sendable {
    package var feed: String
    /// The schedule as ``FeedSchedule/description`` writes it.
    package var schedule: String
    package var due: Date

    package init(feed: String, schedule: String, due: Date) {
        self.feed = feed
        self.schedule = schedule
        self.due = due
    }
}

/// A due feed a worker holds.
public struct ScheduleClaim: Sendable, Hashable {
    public var feed: String
    /// When it was due.
    public var due: Date

    package init(feed: String, due: Date) {
        self.feed = feed
        self.due = due
    }
}

/// One row of the board, for `feedwork list`.
public struct ScheduleEntry: Sendable, Hashable, Codable {
    public var schedule: String
    public var nextRunAt: Date
    /// The worker holding the feed, while its lease lasts.
    public var worker: String?
    public var leaseUntil: Date?

    package init(schedule: String, nextRunAt: Date, worker: String? = nil, leaseUntil: Date? = nil) {
        self.schedule = schedule
        self.nextRunAt = nextRunAt
        self.worker = worker
        self.leaseUntil = leaseUntil
    }
}

extension [String] {
    /// The names as a JSON array, the one parameter a board query filters by on either store.
    package var jsonArrayText: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
