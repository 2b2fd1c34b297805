import FeedKit
import FeedStore
import Foundation

/// A claimed feed's pass in a worker, and when the feed is due after it.
extension Worker {
    /// One pass of a claimed feed, renewing the claim every third of the lease until it ends.
    func pass(_ feed: FeedConfig, engine: Engine, time: ScheduleTime) async -> FeedReport {
        let store = engine.store
        let lease = engine.config.lease
        let name = name
        let observer = observer
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    await MonotonicSleep.sleep(seconds: lease.seconds / 3)
                    guard !Task.isCancelled else { break }
                    let until = time.now().addingTimeInterval(lease.seconds)
                    if (try? await store.renew(feed: feed.name, worker: name, until: until)) == false {
                        observer.worker(.claimLost(feed: feed.name))
                    }
                }
            }
            let report = await engine.runFeed(feed)
            group.cancelAll()
            return report
        }
    }

    /// When a feed is due after its pass: by its schedule, sooner after a failure or a skip
    /// (`retry_failed_after`), at its old time when the pass was cut short by stopping (so
    /// another worker runs it), and shortly when another process held it. A `cron:` time is
    /// found on the wall clock; the rest is counted on the schedule's clock.
    /// `schedule` is the feed's in the config in use, `nil` when it is no longer scheduled.
    func nextDue(_ claim: ScheduleClaim, report: FeedReport, schedule: FeedSchedule?, time: ScheduleTime) -> Date {
        let now = time.now()
        if report.status == .interrupted { return claim.due }
        if report.run == nil, report.status != .skipped { return now.addingTimeInterval(pollInterval.seconds * 2) }
        guard let schedule else { return .distantFuture }
        let failed = report.status == .failed || report.status == .skipped
        let random = Double.random(in: 0...1)
        switch schedule.timing {
        case .every:
            return schedule.nextDue(after: claim.due, ended: now, failed: failed, random: random)
        case .cron:
            let wall = time.clock.wallNow()
            return time.fromWall(schedule.nextDue(after: claim.due, ended: wall, failed: failed, random: random))
        }
    }
}
