import FeedKit
import FeedStore
import Foundation
import Logging

/// `feedwork worker`: runs each scheduled feed when it is due, up to `concurrency` passes at
/// once, until told to stop.
///
/// Due feeds are claimed from the store's schedule board
/// (``Store/claim(excluding:worker:now:dueBy:lease:limit:)``), so any number of workers
/// can share a PostgreSQL store: each due feed is run by exactly one of them, and the
/// feeds of a worker that dies are taken over once its claims' lease runs out. A claim is
/// renewed every third of the lease while its pass runs.
///
/// Feeds are claimed shortly before they are due (``claimHorizon(lease:)``, in the background)
/// and started from memory at their due time, or as soon as a slot frees (``ClaimsAhead``): a
/// claim is a write, which on SQLite waits behind the running passes' transactions, and a
/// pass that waited for it started that much late.
///
/// On a SQLite store, which the worker holds, `feedwork run` hands its feeds to the worker
/// (``RunRequests``): they run at once, before due feeds are claimed, and the report goes back.
///
/// Stopping is graceful: no new pass starts, running passes get ``grace`` to finish and are
/// then cancelled, which rolls them back; their feeds are given back still due.
public struct Worker: Sendable {
    /// The engine passes run on; its config is replaced on ``WorkerControl/reload(_:)``.
    public var engine: Engine
    /// The worker's name on the board and in `feedwork list`: `host:pid` unless given.
    public var name: String
    public var observer: any WorkerObserver
    /// How long running passes may go on once the worker is told to stop.
    public var grace: FeedDuration = .seconds(30)
    /// The longest the worker sleeps before looking at the board again: other workers give
    /// feeds back and leases run out without telling it, and `feedwork run` leaves requests.
    /// Its own due feeds never wait for this look: they are claimed ahead, a slot that frees is
    /// filled at once, and the worker wakes at the next due time.
    public var pollInterval: FeedDuration = .seconds(1)
    public var logger = Logger(label: "feedwork.worker")
    /// The clocks the schedule is kept by (``ScheduleTime``): due times advance on the
    /// monotonic clock, so a step of the wall clock neither stalls nor bunches passes.
    public var clock: any WorkerClock = SystemWorkerClock()

    public init(engine: Engine, name: String, observer: any WorkerObserver) {
        var engine = engine
        // A feed held by another process is given back at once rather than waited for.
        engine.wait = .seconds(1)
        self.engine = engine
        self.name = name
        self.observer = observer
    }

    /// The default worker name: this machine's host name and the process id.
    public static var defaultName: String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// How long before a feed is due the worker claims it (``ClaimsAhead``): a sixth of the
    /// lease (10 s of the default 60 s), so the claim's write, which on SQLite waits behind the
    /// passes' transactions, is done by the due time, and a claim is started or given back
    /// (after a third of the lease) long before its lease runs out.
    static func claimHorizon(lease: FeedDuration) -> TimeInterval { lease.seconds / 6 }

    /// Runs until ``WorkerControl/stop`` arrives and the passes under way have ended.
    ///
    /// Each event (a command, a timer, a pass or claim that ended) is taken in by the loop's
    /// state (``WorkerLoop``), which then starts what can start, gives back what waited too
    /// long, asks the board for claims and sets the next wake.
    ///
    /// - Throws: when the schedule cannot be put on the board at the start (the store is
    ///   unreachable); later store failures are reported as ``WorkerEvent/boardFailed(_:)``
    ///   and retried.
    public func run(commands: AsyncStream<WorkerControl>) async throws {
        let time = ScheduleTime(clock: clock, boardStart: try await engine.store.clock())
        let foreign = try await plan(engine.config, time: time)
        try await takeOverAbandonedClaims()
        observer.worker(.started(worker: name, feeds: Self.scheduled(engine.config).count))
        let (events, sink) = AsyncStream<WorkerLoop.Event>.makeStream()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await command in commands { sink.yield(.command(command)) }
            }
            var loop = WorkerLoop(worker: self, time: time, foreign: foreign, sink: sink)
            sink.yield(.wake(.distantPast))
            for await event in events {
                guard await loop.handle(event, group: &group) else { continue }
                if loop.stopping {
                    await loop.giveBackClaimsAhead()
                    if loop.isIdle { break }
                    continue
                }
                loop.takeRunRequests()
                loop.startRequestedPasses(group: &group)
                await loop.startDuePasses(group: &group)
                let now = time.now()
                await loop.giveBackStaleClaims(now: now)
                let claimAt = await loop.claimIfDue(now: now, group: &group)
                loop.scheduleWake(now: now, claimAt: claimAt, group: &group)
            }
            sink.finish()
            group.cancelAll()
        }
    }

    /// Why `config` cannot replace `current` in a running worker, or `nil`.
    func reloadProblem(_ config: FeedsConfig, current: FeedsConfig) -> String? {
        guard config.storeLocation == current.storeLocation else {
            return "the new config names another store (\(config.storeDescription)); restart the worker to use it"
        }
        return nil
    }

    /// The enabled feeds with a schedule.
    static func scheduled(_ config: FeedsConfig) -> [FeedConfig] {
        config.feeds.filter { $0.enabled && $0.schedule != nil }
    }

    /// The enabled feeds with a schedule, by name: the loop looks up every scheduled feed after
    /// each event, which a search of the list made a million comparisons with 1,000 feeds.
    static func scheduledByName(_ config: FeedsConfig) -> [String: FeedConfig] {
        Dictionary(scheduled(config).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
