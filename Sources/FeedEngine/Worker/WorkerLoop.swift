import FeedKit
import FeedStore
import Foundation
import Synchronization

/// What a running ``Worker`` keeps between the events of its loop (``Worker/run(commands:)``):
/// the passes running, the claims held, the run requests under way.
///
/// Each event is taken in by one method (``handle(_:group:)``); after it, the loop's steps
/// (`WorkerLoop+Steps.swift`) start what can start, give back what waited too long, ask the
/// board for claims and set the next wake. Its tasks (passes, claims, timers) run in the
/// worker's task group and answer with events through `sink`: each is handed the values it
/// needs, never the loop.
struct WorkerLoop {
    /// What the loop hears: the CLI's commands, its timers, and its tasks' answers.
    enum Event: Sendable {
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

    /// The schedules of the config a worker uses, by feed, shared with its passes: each reads
    /// its feed's as it ends, for the feed's next due time.
    final class CurrentSchedules: Sendable {
        private let schedules: Mutex<[String: FeedSchedule]>
        init(_ feeds: [String: FeedConfig]) { schedules = Mutex(feeds.compactMapValues(\.schedule)) }
        func replace(with feeds: [String: FeedConfig]) {
            let new = feeds.compactMapValues(\.schedule)
            schedules.withLock { $0 = new }
        }
        /// The schedule of `feed`, or `nil` when it is no longer scheduled.
        func schedule(of feed: String) -> FeedSchedule? { schedules.withLock { $0[feed] } }
    }

    /// A pass a run request asked for.
    typealias RequestedPass = (request: String, feed: FeedConfig, engine: Engine)

    let worker: Worker
    let time: ScheduleTime
    let sink: AsyncStream<Event>.Continuation
    let store: Store
    /// The schedules in use, read by each pass as it ends for its feed's next due time.
    let current: CurrentSchedules
    /// Claims that did not start go back for other workers only on a board shared with
    /// them: a worker holding the store's exclusive lock keeps them until a slot frees.
    let sharesBoard: Bool
    /// The store's file, beside which run requests are left (``RunRequests``); `nil` for a server.
    let requestStore: String?
    /// The worker's engine, with the config in use.
    var engine: Engine
    /// The passes running, by feed.
    var running: [String: ScheduleClaim] = [:]
    /// Feeds whose pass ended, being given back: their slot is free already.
    var releasing: Set<String> = []
    /// Feeds claimed before they were due, started from here.
    var ahead = ClaimsAhead()
    /// Whether a claim is under way (one at a time), and when to ask the board again:
    /// the next feed's due time less the horizon, or the poll.
    var claiming = false
    var claimAt = Date.distantPast
    /// Whether claims went back (``sharesBoard``): given back, they are claimed again once one
    /// of this worker's slots frees.
    var gaveBack = false
    /// Requested passes not started yet (their feed was running).
    var requested: [RequestedPass] = []
    var scheduled: [String: FeedConfig] {
        didSet {
            parents = Self.parents(of: scheduled)
            children = Self.children(of: parents)
        }
    }
    /// The feeds each scheduled feed depends on, for those that depend on any: reading
    /// `scheduled[name]?.dependsOn` copies the whole feed config.
    var parents: [String: [String]]
    /// The scheduled feeds that depend on each feed, for those that any depends on: they wait
    /// while it runs.
    var children: [String: [String]]
    /// Feeds on the board that this worker does not schedule (dropped from its config, or in
    /// another worker's only), which its claims leave to others.
    var foreign: Set<String>
    /// The reports of each request's passes so far.
    var answers: [String: (request: RunRequest, reports: [String: FeedReport])] = [:]
    var stopping = false
    var pendingWake: Date?
    var boardFailing = false
    /// Feeds whose giving back failed (the store was away), given back when it answers.
    var unreleased: [String: Date] = [:]
    /// The feeds whose last pass in this worker did not let the feeds depending on them run
    /// (it failed, or was skipped), with that pass: a feed whose parent is here is skipped
    /// rather than run on its parent's old rows. Only those are kept (``remember(_:)``): a
    /// report for every feed grew the worker by one for each of 10,000 feeds.
    private(set) var blockingPasses: [String: FeedReport] = [:]

    /// A loop for `worker`, whose config's feeds are on the board (``Worker/plan(_:time:)``)
    /// beside `foreign` ones.
    init(worker: Worker, time: ScheduleTime, foreign: Set<String>, sink: AsyncStream<Event>.Continuation) {
        self.worker = worker
        self.time = time
        self.sink = sink
        self.foreign = foreign
        engine = worker.engine
        store = engine.store
        sharesBoard = !store.holdsExclusiveLock
        requestStore = store.file
        scheduled = Worker.scheduledByName(engine.config)
        current = CurrentSchedules(scheduled)
        parents = Self.parents(of: scheduled)
        children = Self.children(of: parents)
    }

    /// The parents of each of `feeds` that has any.
    static func parents(of feeds: [String: FeedConfig]) -> [String: [String]] {
        feeds.compactMapValues { $0.dependsOn.isEmpty ? nil : $0.dependsOn }
    }

    /// The feeds that depend on each parent in `parents`.
    static func children(of parents: [String: [String]]) -> [String: [String]] {
        var children: [String: [String]] = [:]
        for (child, feeds) in parents {
            for parent in feeds { children[parent, default: []].append(child) }
        }
        return children
    }

    /// Whether no pass runs, none is being given back and no claim is under way: a stopping
    /// worker ends then.
    var isIdle: Bool { running.isEmpty && releasing.isEmpty && !claiming }

    /// Takes in `event`; false when nothing follows from it (a wake that a sooner one replaced).
    mutating func handle(_ event: Event, group: inout DiscardingTaskGroup) async -> Bool {
        switch event {
        case .command(.stop):
            stop(group: &group)
        case .command(.reload(let config)):
            await reload(config)
        case .wake(let at):
            // A wake that a sooner one replaced comes too late to matter.
            guard at == .distantPast || at == pendingWake else { return false }
            pendingWake = nil
        case .claimed(let claims, let asked, let again, let failure):
            claimed(claims, asked: asked, claimAgain: again, failure: failure)
        case .passEnded(let feed):
            passEnded(feed: feed)
        case .finished(let claim, let report, let lag, let next, let releaseFailure):
            finished(claim, report, lag: lag, next: next, releaseFailure: releaseFailure)
        case .requestedFinished(let id, let claim, let report):
            await requestedFinished(request: id, claim, report)
        case .graceOver:
            graceOver(group: &group)
        }
        return true
    }

    /// No new pass starts; the running ones have the grace time to end.
    private mutating func stop(group: inout DiscardingTaskGroup) {
        guard !stopping else { return }
        stopping = true
        worker.observer.worker(.stopping(running: running.count))
        let (grace, sink) = (worker.grace, sink)
        group.addTask {
            try? await Task.sleep(for: .milliseconds(grace.milliseconds))
            sink.yield(.graceOver)
        }
    }

    /// Puts `config` on the board and uses it from now on, or keeps the old one and says why.
    private mutating func reload(_ config: FeedsConfig) async {
        if let problem = worker.reloadProblem(config, current: engine.config) {
            worker.observer.worker(.reloadRefused(problem))
            return
        }
        do {
            foreign = try await worker.plan(config, time: time)
            engine = engine.reconfigured(config)
            scheduled = Worker.scheduledByName(config)
            current.replace(with: scheduled)
            claimAt = .distantPast
            worker.observer.worker(.reloaded(feeds: Worker.scheduled(config).count))
        } catch {
            worker.observer.worker(.reloadRefused("\(error)"))
        }
    }

    private mutating func claimed(_ claims: [ScheduleClaim], asked: Date, claimAgain: Date, failure: String?) {
        claiming = false
        claimAt = claimAgain
        if let failure {
            boardFailing = true
            worker.observer.worker(.boardFailed(failure))
        } else {
            // A feed another worker's config put on the board since: given back as it starts
            // (``startDuePasses(group:)``) and left out of the next claims.
            for claim in claims where scheduled[claim.feed] == nil { foreign.insert(claim.feed) }
            ahead.add(claims, claimedAt: asked)
            if boardFailing {
                boardFailing = false
                worker.observer.worker(.boardRecovered)
            }
        }
    }

    private mutating func passEnded(feed: String) {
        running[feed] = nil
        releasing.insert(feed)
        if gaveBack {
            gaveBack = false
            claimAt = .distantPast
        }
    }

    private mutating func finished(
        _ claim: ScheduleClaim, _ report: FeedReport, lag: TimeInterval, next: Date, releaseFailure: String?
    ) {
        releasing.remove(claim.feed)
        remember(report)
        claimAt = min(claimAt, next.addingTimeInterval(-Worker.claimHorizon(lease: engine.config.lease)))
        if let releaseFailure {
            boardFailing = true
            unreleased[claim.feed] = next
            worker.observer.worker(.boardFailed("giving back \(claim.feed): \(releaseFailure)"))
        }
        worker.observer.worker(.passFinished(report, due: claim.due, lag: lag, next: next))
    }

    private mutating func requestedFinished(request id: String, _ claim: ScheduleClaim, _ report: FeedReport) async {
        running[claim.feed] = nil
        remember(report)
        let next = (try? await store.scheduleEntries()[claim.feed]?.nextRunAt) ?? .distantFuture
        worker.observer.worker(.passFinished(report, due: claim.due, lag: 0, next: next))
        if let requestStore, var answer = answers[id] {
            answer.reports[claim.feed] = report
            answers[id] = answer
            answerIfComplete(id, forStore: requestStore)
        }
    }

    private func graceOver(group: inout DiscardingTaskGroup) {
        guard !running.isEmpty else { return }
        worker.observer.worker(.graceExpired(running: running.keys.sorted()))
        // Cancels the passes (they roll back and report back) and the timers.
        group.cancelAll()
    }

    /// Keeps `report` as its feed's last pass when it blocks the feeds depending on it, and
    /// forgets an earlier one that did when it does not.
    mutating func remember(_ report: FeedReport) {
        blockingPasses[report.feed] = report.letsDependentsRun ? nil : report
    }

    /// Answers the run request `id` once each of its feeds has a report.
    mutating func answerIfComplete(_ id: String, forStore storePath: String) {
        guard let answer = answers[id], answer.request.feeds.allSatisfy({ answer.reports[$0] != nil }) else { return }
        let report = RunReport(feeds: answer.request.feeds.compactMap { answer.reports[$0] })
        RunRequests.answer(id, RunAnswer(report: report), forStore: storePath)
        answers[id] = nil
    }
}
