import FeedKit
import FeedStore
import Foundation
import Logging
import Synchronization

/// `feedwork worker`: runs each scheduled feed when it is due, up to `concurrency` passes at
/// once, until told to stop.
///
/// Due feeds are claimed from the store's schedule board (``ScheduleBoard``), so any number of
/// workers can share a PostgreSQL store: each due feed is run by exactly one of them, and the
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

    private enum Event: Sendable {
        case command(WorkerControl)
        case wake(Date)
        /// The board answered a claim asked at `asked`: the feeds got (due by the claim
        /// horizon), when to claim again, and why the claim failed, if it did.
        case claimed([ScheduleClaim], asked: Date, claimAgain: Date, failure: String?)
        /// A claimed pass ended: its slot is free while its feed is given back.
        case passEnded(feed: String)
        /// A claimed pass's feed was given back, due next at `next`; `releaseFailure` says why
        /// the giving back failed (the store was away), to be tried again.
        case finished(ScheduleClaim, FeedReport, lag: TimeInterval, next: Date, releaseFailure: String?)
        /// A pass a ``RunRequest`` asked for ended.
        case requestedFinished(request: String, ScheduleClaim, FeedReport)
        case graceOver
    }

    /// How long before a feed is due the worker claims it (``ClaimsAhead``): a sixth of the
    /// lease (10 s of the default 60 s), so the claim's write, which on SQLite waits behind the
    /// passes' transactions, is done by the due time, and a claim is started or given back
    /// (after a third of the lease) long before its lease runs out.
    static func claimHorizon(lease: FeedDuration) -> TimeInterval { lease.seconds / 6 }

    /// Runs until ``WorkerControl/stop`` arrives and the passes under way have ended.
    ///
    /// - Throws: when the schedule cannot be put on the board at the start (the store is
    ///   unreachable); later store failures are reported as ``WorkerEvent/boardFailed(_:)``
    ///   and retried.
    public func run(commands: AsyncStream<WorkerControl>) async throws {
        var engine = engine
        let store = engine.store
        let time = ScheduleTime(clock: clock, boardStart: try await store.clock())
        // The config in use, read by each pass as it ends for its feed's next due time.
        let current = CurrentConfig(engine.config)
        try await plan(engine.config, time: time)
        try await takeOverAbandonedClaims()
        observer.worker(.started(worker: name, feeds: Self.scheduled(engine.config).count))
        let (events, sink) = AsyncStream<Event>.makeStream()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await command in commands { sink.yield(.command(command)) }
            }
            var running: [String: ScheduleClaim] = [:]
            // Feeds whose pass ended, being given back: their slot is free already.
            var releasing: Set<String> = []
            // Feeds claimed before they were due, started from here.
            var ahead = ClaimsAhead()
            // Whether a claim is under way (one at a time), and when to ask the board again:
            // the next feed's due time less the horizon, or the poll.
            var claiming = false
            var claimAt = Date.distantPast
            // Claims that did not start go back for other workers only on a board shared with
            // them: a worker holding the store's exclusive lock keeps them until a slot frees.
            // Given back, they are claimed again once one of this worker's slots frees.
            let sharesBoard = !store.holdsExclusiveLock
            var gaveBack = false
            // Requested passes not started yet (their feed was running), and the reports of each
            // request's passes so far.
            var requested: [(request: String, feed: FeedConfig, engine: Engine)] = []
            var scheduled = Self.scheduledByName(engine.config)
            var answers: [String: (request: RunRequest, reports: [String: FeedReport])] = [:]
            let requestStore = store.file
            var stopping = false
            var pendingWake: Date?
            var boardFailing = false
            // Feeds whose giving back failed (the store was away), given back when it answers.
            var unreleased: [String: Date] = [:]
            // Each feed's last pass in this worker, by name: a feed whose parent's last pass did
            // not commit is skipped rather than run on its parent's old rows.
            var lastPasses: [String: FeedReport] = [:]
            sink.yield(.wake(.distantPast))
            for await event in events {
                switch event {
                case .command(.stop):
                    guard !stopping else { break }
                    stopping = true
                    observer.worker(.stopping(running: running.count))
                    let grace = grace
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(grace.milliseconds))
                        sink.yield(.graceOver)
                    }
                case .command(.reload(let config)):
                    if let problem = reloadProblem(config, current: engine.config) {
                        observer.worker(.reloadRefused(problem))
                    } else {
                        do {
                            try await plan(config, time: time)
                            engine = engine.reconfigured(config)
                            current.config.withLock { $0 = config }
                            scheduled = Self.scheduledByName(config)
                            claimAt = .distantPast
                            observer.worker(.reloaded(feeds: Self.scheduled(config).count))
                        } catch {
                            observer.worker(.reloadRefused("\(error)"))
                        }
                    }
                case .wake(let at):
                    // A wake that a sooner one replaced comes too late to matter.
                    guard at == .distantPast || at == pendingWake else { continue }
                    pendingWake = nil
                case .claimed(let claims, let asked, let again, let failure):
                    claiming = false
                    claimAt = again
                    if let failure {
                        boardFailing = true
                        observer.worker(.boardFailed(failure))
                    } else {
                        ahead.add(claims, claimedAt: asked)
                        if boardFailing {
                            boardFailing = false
                            observer.worker(.boardRecovered)
                        }
                    }
                case .passEnded(let feed):
                    running[feed] = nil
                    releasing.insert(feed)
                    if gaveBack {
                        gaveBack = false
                        claimAt = .distantPast
                    }
                case .finished(let claim, let report, let lag, let next, let releaseFailure):
                    releasing.remove(claim.feed)
                    lastPasses[claim.feed] = report
                    claimAt = min(claimAt, next.addingTimeInterval(-Self.claimHorizon(lease: engine.config.lease)))
                    if let releaseFailure {
                        boardFailing = true
                        unreleased[claim.feed] = next
                        observer.worker(.boardFailed("giving back \(claim.feed): \(releaseFailure)"))
                    }
                    observer.worker(.passFinished(report, due: claim.due, lag: lag, next: next))
                case .requestedFinished(let id, let claim, let report):
                    running[claim.feed] = nil
                    lastPasses[claim.feed] = report
                    let next = (try? await store.scheduleEntries()[claim.feed]?.nextRunAt) ?? .distantFuture
                    observer.worker(.passFinished(report, due: claim.due, lag: 0, next: next))
                    if let requestStore, var answer = answers[id] {
                        answer.reports[claim.feed] = report
                        answers[id] = answer
                        Self.answerIfComplete(id, answers: &answers, store: requestStore)
                    }
                case .graceOver:
                    guard !running.isEmpty else { break }
                    observer.worker(.graceExpired(running: running.keys.sorted()))
                    // Cancels the passes (they roll back and report back) and the timers.
                    group.cancelAll()
                }
                if stopping {
                    // Feeds claimed ahead go back still due, for the next worker.
                    for claim in ahead.takeAll() {
                        try? await store.release(feed: claim.feed, worker: name, next: claim.due)
                    }
                    if running.isEmpty && releasing.isEmpty && !claiming { break }
                    continue
                }
                if let requestStore {
                    for request in RunRequests.take(forStore: requestStore) {
                        let unknown = request.feeds.filter { engine.config.feed(named: $0) == nil }
                        guard unknown.isEmpty, !request.feeds.isEmpty else {
                            let refusal =
                                "the worker's config (\(engine.config.file)) has no feed "
                                + unknown.map { "'\($0)'" }.joined(separator: ", ")
                            RunRequests.answer(request.id, RunAnswer(refused: refusal), forStore: requestStore)
                            continue
                        }
                        var requestEngine = engine
                        requestEngine.offline = request.offline
                        requestEngine.fullRefresh = request.fullRefresh
                        answers[request.id] = (request, [:])
                        for name in request.feeds {
                            if let feed = engine.config.feed(named: name) {
                                requested.append((request.id, feed, requestEngine))
                            }
                        }
                    }
                }
                let slots = max(1, engine.config.concurrency)
                // Requested passes first, each once its feed is not running and the feeds it
                // depends on have ended; skipped when one of those (in the same request) failed.
                var waiting: [(request: String, feed: FeedConfig, engine: Engine)] = []
                for item in requested {
                    let parents = item.feed.dependsOn.filter { name in
                        running[name] != nil
                            || requested.contains { $0.request == item.request && $0.feed.name == name }
                    }
                    guard parents.isEmpty, running[item.feed.name] == nil, running.count < slots else {
                        waiting.append(item)
                        continue
                    }
                    if let requestStore, var answer = answers[item.request],
                        let parent = item.feed.dependsOn.compactMap({ answer.reports[$0] }).first(where: {
                            !$0.letsDependentsRun
                        })
                    {
                        answer.reports[item.feed.name] = .skipped(item.feed, because: parent)
                        answers[item.request] = answer
                        Self.answerIfComplete(item.request, answers: &answers, store: requestStore)
                        continue
                    }
                    let claim = ScheduleClaim(feed: item.feed.name, due: Date())
                    running[item.feed.name] = claim
                    observer.worker(.passStarted(feed: item.feed.name, due: claim.due, lag: 0))
                    group.addTask {
                        let report = await item.engine.runFeed(item.feed)
                        sink.yield(.requestedFinished(request: item.request, claim, report))
                    }
                }
                requested = waiting
                let lease = engine.config.lease
                // On a board shared with other workers, a feed is claimed once due and only for a
                // free slot, so none waits in one worker while another could run it.
                let horizon = sharesBoard ? 0 : Self.claimHorizon(lease: lease)
                var now = time.now()
                // Due feeds claimed ahead start whenever a slot is free: at their due time (the
                // wake below) or as a pass ends. A feed waits while one it depends on runs (until
                // its report is in), or is due to start first.
                while running.count < slots,
                    let claim = ahead.firstDue(
                        at: now,
                        where: { claim in
                            running[claim.feed] == nil
                                && !(scheduled[claim.feed]?.dependsOn.contains {
                                    running[$0] != nil || releasing.contains($0) || ahead.isDue($0, at: now)
                                } ?? false)
                        })
                {
                    ahead.remove(claim.feed)
                    guard let feed = scheduled[claim.feed] else {
                        // No longer scheduled (the config was reloaded): given back as it was.
                        try? await store.release(feed: claim.feed, worker: name, next: claim.due)
                        continue
                    }
                    let lag = now.timeIntervalSince(claim.due)
                    // A parent whose last pass failed: skipped, and due again as a failed pass
                    // is (`retry_failed_after`), by when the parent may have committed.
                    if let parent = feed.dependsOn.compactMap({ lastPasses[$0] }).first(where: {
                        !$0.letsDependentsRun
                    }) {
                        let report = FeedReport.skipped(feed, because: parent)
                        let next = nextDue(claim, report: report, config: engine.config, time: time)
                        try? await store.release(feed: claim.feed, worker: name, next: next)
                        lastPasses[claim.feed] = report
                        observer.worker(.passFinished(report, due: claim.due, lag: lag, next: next))
                        continue
                    }
                    running[claim.feed] = claim
                    observer.worker(.passStarted(feed: claim.feed, due: claim.due, lag: lag))
                    let engine = engine
                    group.addTask {
                        let report = await pass(feed, engine: engine, time: time)
                        // The slot is free now; the feed is given back here rather than by the
                        // loop, whose next claim a write of the store would hold back.
                        sink.yield(.passEnded(feed: claim.feed))
                        let config = current.config.withLock { $0 }
                        let next = nextDue(claim, report: report, config: config, time: time)
                        var releaseFailure: String?
                        do {
                            try await store.release(feed: claim.feed, worker: name, next: next)
                        } catch {
                            releaseFailure = "\(error)"
                        }
                        sink.yield(.finished(claim, report, lag: lag, next: next, releaseFailure: releaseFailure))
                    }
                }
                // Claims that waited a third of their lease, or the horizon past their due time,
                // without a free slot go back, still due, for a worker that has one.
                now = time.now()
                let stale =
                    sharesBoard
                    ? ahead.takeStale(
                        claimedBefore: now.addingTimeInterval(-lease.seconds / 3),
                        dueBefore: now.addingTimeInterval(-horizon)) : []
                for claim in stale {
                    gaveBack = true
                    do {
                        try await store.release(feed: claim.feed, worker: name, next: claim.due)
                    } catch {
                        boardFailing = true
                        unreleased[claim.feed] = claim.due
                        observer.worker(.boardFailed("giving back \(claim.feed): \(error)"))
                    }
                }
                // The board is asked for the feeds due within the horizon, up to as many again as
                // the slots beyond those running, in the background: the loop goes on starting
                // passes.
                let limit = (sharesBoard ? 1 : 2) * slots - running.count - ahead.count
                let candidates = scheduled.keys.filter { name in
                    running[name] == nil && !releasing.contains(name) && !ahead.contains(name)
                        && !(scheduled[name]?.dependsOn.contains { running[$0] != nil || releasing.contains($0) }
                            ?? false)
                }
                var wakeAt = now.addingTimeInterval(pollInterval.seconds)
                if !claiming, limit > 0, !candidates.isEmpty {
                    if now >= claimAt {
                        do {
                            for (feed, next) in unreleased.sorted(by: { $0.key < $1.key }) {
                                try await store.release(feed: feed, worker: name, next: next)
                                unreleased[feed] = nil
                            }
                            claiming = true
                            let (name, poll, logger) = (name, pollInterval.seconds, logger)
                            group.addTask {
                                let answer = await Self.claim(
                                    candidates, store: store, worker: name, time: time, lease: lease,
                                    horizon: horizon, poll: poll, limit: limit, logger: logger)
                                sink.yield(answer)
                            }
                        } catch {
                            boardFailing = true
                            observer.worker(.boardFailed("\(error)"))
                            claimAt = now.addingTimeInterval(pollInterval.seconds)
                        }
                    }
                    if !claiming { wakeAt = min(wakeAt, claimAt) }
                }
                if running.count < slots, let due = ahead.nextDue(after: now) { wakeAt = min(wakeAt, due) }
                if sharesBoard, let stale = ahead.nextStale(age: lease.seconds / 3, wait: horizon) {
                    wakeAt = min(wakeAt, stale)
                }
                if pendingWake.map({ wakeAt < $0 }) ?? true {
                    pendingWake = wakeAt
                    group.addTask {
                        let delay = wakeAt.timeIntervalSince(time.now())
                        await MonotonicSleep.sleep(seconds: delay)
                        sink.yield(.wake(wakeAt))
                    }
                }
            }
            sink.finish()
            group.cancelAll()
        }
    }

    /// Claims up to `limit` of `feeds` due within `horizon`, and says when to ask again: at
    /// once when the limit was reached, else `horizon` before the next of the others is due
    /// (at the end of its lease when another worker holds it), and at the latest after `poll`.
    private static func claim(
        _ feeds: [String], store: any StoreDriver, worker: String, time: ScheduleTime, lease: FeedDuration,
        horizon: TimeInterval, poll: TimeInterval, limit: Int, logger: Logger
    ) async -> Event {
        let asked = time.now()
        do {
            let claims = try await store.claim(
                feeds, worker: worker, now: asked, dueBy: asked.addingTimeInterval(horizon), lease: lease, limit: limit)
            let answered = time.now()
            logger.debug(
                "claimed \(claims.count) feed(s) of at most \(limit) in \(Int(answered.timeIntervalSince(asked) * 1000)) ms"
            )
            var again = asked.addingTimeInterval(poll)
            if claims.count == limit {
                again = asked
            } else {
                let got = Set(claims.map(\.feed))
                if let next = try await store.nextClaimable(feeds.filter { !got.contains($0) }) {
                    // A feed due within the horizon and not claimed is held by another worker:
                    // it is claimable once that one's lease runs out, not before.
                    let ahead = next.addingTimeInterval(-horizon)
                    again = min(again, ahead > asked ? ahead : max(next, answered))
                }
            }
            return .claimed(claims, asked: asked, claimAgain: again, failure: nil)
        } catch {
            return .claimed([], asked: asked, claimAgain: time.now().addingTimeInterval(poll), failure: "\(error)")
        }
    }

    /// The config a worker uses, shared with its passes.
    private final class CurrentConfig: Sendable {
        let config: Mutex<FeedsConfig>
        init(_ config: FeedsConfig) { self.config = Mutex(config) }
    }

    /// Answers the run request `id` once each of its feeds has a report.
    private static func answerIfComplete(
        _ id: String, answers: inout [String: (request: RunRequest, reports: [String: FeedReport])], store: String
    ) {
        guard let answer = answers[id], answer.request.feeds.allSatisfy({ answer.reports[$0] != nil }) else { return }
        let report = RunReport(feeds: answer.request.feeds.compactMap { answer.reports[$0] })
        RunRequests.answer(id, RunAnswer(report: report), forStore: store)
        answers[id] = nil
    }

    /// Why `config` cannot replace `current` in a running worker, or `nil`.
    private func reloadProblem(_ config: FeedsConfig, current: FeedsConfig) -> String? {
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
