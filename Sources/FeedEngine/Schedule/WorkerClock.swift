import Foundation

/// The clocks a worker reads: the wall clock, and a monotonic one that no step of the wall
/// clock moves. ``SystemWorkerClock`` reads the system's; a test may step a wall clock of its own.
public protocol WorkerClock: Sendable {
    /// The wall clock's time: for `cron:` times and what is stored.
    func wallNow() -> Date
    /// Seconds on a monotonic clock, from any origin.
    func monotonicSeconds() -> Double
}

/// The system's wall clock, and Swift's `ContinuousClock` (the clock `Task.sleep` waits on).
public struct SystemWorkerClock: WorkerClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func wallNow() -> Date { Date() }

    public func monotonicSeconds() -> Double {
        let elapsed = origin.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}

/// The time a worker schedules by: the board's time when the worker started (the PostgreSQL
/// server's clock, ``Store/clock()``; else this machine's wall clock), advanced by the
/// monotonic clock since. A step of the wall clock (an hour back, three days forward and back)
/// neither stalls the schedule nor bunches its passes; `every:` keeps its rhythm; and workers
/// whose machines' clocks disagree share one board's due times and leases.
///
/// The board stores times of this clock, which agrees with the wall clock as long as the wall
/// clock is not stepped while the worker runs (NTP slews both alike). A `cron:` time is found on
/// the wall clock and brought over with ``fromWall(_:)``.
struct ScheduleTime: Sendable {
    let clock: any WorkerClock
    private let start: Date
    private let monotonicStart: Double

    /// - Parameter boardStart: the board's time now, when it keeps a clock of its own.
    init(clock: any WorkerClock, boardStart: Date? = nil) {
        self.clock = clock
        monotonicStart = clock.monotonicSeconds()
        start = boardStart ?? clock.wallNow()
    }

    /// Now, on the schedule's clock.
    func now() -> Date { start.addingTimeInterval(clock.monotonicSeconds() - monotonicStart) }

    /// The schedule's time of the wall clock's time `wall`: as far from now as `wall` is from
    /// the wall clock's now.
    func fromWall(_ wall: Date) -> Date {
        if wall == .distantFuture || wall == .distantPast { return wall }
        return now().addingTimeInterval(wall.timeIntervalSince(clock.wallNow()))
    }
}
