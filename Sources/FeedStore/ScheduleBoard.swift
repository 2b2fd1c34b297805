import FeedKit
import Foundation

/// `_schedule`: when each scheduled feed is next due, and which worker holds it.
///
/// A worker claims due feeds from the board, holds each claim for a lease it renews while the
/// pass runs, and gives the feed back with its next due time. Claims are atomic, so of any
/// number of workers sharing a PostgreSQL store exactly one runs a due feed; a claim whose
/// lease ran out (its worker died) can be taken by another. The feed's own lease
/// (``StoreDriver/lease(of:wait:)``) still guards the pass itself.
///
/// The board's reads (``StoreReading/scheduleEntries()``) are the store's reads.
///
/// Times are on the board's clock (``clock()``): a PostgreSQL server's, so that workers on
/// machines whose clocks disagree (a clock 30 s ahead, one stepped back) still agree on when a
/// feed is due and when a lease runs out.
package protocol ScheduleBoard: Sendable {
    /// The board's own time, when it keeps one: the PostgreSQL server's, which every worker
    /// sharing the store keeps its schedule by (``ScheduleTime``). `nil` (the default) for a
    /// board on this machine, whose clock is the machine's.
    func clock() async throws -> Date?
    /// Puts each of `feeds` on the board, due at its `due` time, unless it is there already
    /// with the same schedule and was due at or after `overdueBefore`. A feed that no worker
    /// holds is due at its new `due` time when its schedule changed, or when it was due before
    /// `overdueBefore`: no worker ran it for that long (they were stopped), so it comes due at
    /// its next time rather than at once with every other feed the downtime left overdue.
    func plan(_ feeds: [PlannedFeed], overdueBefore: Date) async throws
    /// Claims up to `limit` of the feeds on the board but `excluded` that are due by `dueBy`
    /// and held by no worker (or by one whose lease ran out at `now`) for `worker`, until
    /// `now + lease`; the most overdue first. A `dueBy` after `now` claims feeds ahead of their
    /// due time (the worker's `ClaimsAhead`).
    ///
    /// A worker names the few feeds it cannot take (running, claimed, waiting for a parent,
    /// not in its config) rather than the many it can: with 10,000 feeds, sending every
    /// candidate's name with each claim was half of a worker's CPU and most of the server's.
    func claim(excluding excluded: [String], worker: String, now: Date, dueBy: Date, lease: FeedDuration, limit: Int)
        async throws -> [ScheduleClaim]
    /// Extends `worker`'s claim on `feed` to `until`; `false` when the worker no longer holds it.
    func renew(feed: String, worker: String, until: Date) async throws -> Bool
    /// Gives `feed` back, due next at `next`.
    func release(feed: String, worker: String, next: Date) async throws
    /// The earliest moment one of the feeds on the board but `excluded` may be claimed: its due
    /// time, or for a feed another worker holds, the later of that and the end of its lease.
    /// `nil` when there is none.
    func nextClaimable(excluding excluded: [String]) async throws -> Date?
}

extension ScheduleBoard {
    package func clock() async throws -> Date? { nil }
}

/// A feed to put on the board (``ScheduleBoard/plan(_:)``).
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
