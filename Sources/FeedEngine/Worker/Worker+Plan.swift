import FeedKit
import FeedStore
import Foundation

/// Putting a worker's scheduled feeds on the board as it starts or reloads, and taking over the
/// claims a dead worker left.
extension Worker {
    /// Puts the scheduled feeds of `config` on the board: their last runs' starts are wall
    /// clock times, so each first due time is found on the wall clock and brought over.
    ///
    /// A feed on the board overdue by more than the lease has had no worker (a live one would
    /// have claimed it, unless it was that far behind): it is planned again like a feed that
    /// never ran, at its next time, so a restart after downtime does not start every overdue
    /// feed at once.
    ///
    /// - Returns: the feeds on the board that `config` does not schedule, which the worker's
    ///   claims leave out.
    func plan(_ config: FeedsConfig, time: ScheduleTime) async throws -> Set<String> {
        let starts = try await engine.store.lastRunStarts()
        let wall = time.clock.wallNow()
        let planned = Self.scheduled(config).compactMap { feed in
            feed.schedule.map { schedule in
                PlannedFeed(
                    feed: feed.name, schedule: schedule.description,
                    due: time.fromWall(schedule.firstDue(lastStarted: starts[feed.name], now: wall)))
            }
        }
        try await engine.store.plan(planned, overdueBefore: time.now().addingTimeInterval(-config.lease.seconds))
        let names = Set(planned.map(\.feed))
        return Set(try await engine.store.scheduleEntries().keys.filter { !names.contains($0) })
    }

    /// Gives back at once the claims a dead worker left on a SQLite store, due when they were.
    ///
    /// This worker holds the store's exclusive lock (`SQLiteStoreLock`), which no other process can
    /// hold while it lives, so whoever holds a claim on the board is gone: waiting out its lease
    /// (60 s) would only delay its feeds. On a PostgreSQL store, shared by live workers, leases
    /// run out as usual.
    func takeOverAbandonedClaims() async throws {
        guard engine.store.holdsExclusiveLock else { return }
        for (feed, entry) in try await engine.store.scheduleEntries().sorted(by: { $0.key < $1.key }) {
            guard let holder = entry.worker else { continue }
            try await engine.store.release(feed: feed, worker: holder, next: entry.nextRunAt)
            logger.info("took over \(feed) from \(holder), which no longer holds the store's lock")
        }
    }
}
