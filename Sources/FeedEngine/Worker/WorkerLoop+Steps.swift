import FeedKit
import FeedStore
import Foundation

/// The steps a worker's loop takes after each event (``Worker/run(commands:)``), in this order:
/// take run requests, start requested passes, start due passes, give back stale claims, ask the
/// board for claims, set the next wake. While stopping, it only gives back its claims ahead.
extension WorkerLoop {
    /// How many passes run at once.
    var slots: Int { max(1, engine.config.concurrency) }

    var lease: FeedDuration { engine.config.lease }

    /// On a board shared with other workers, a feed is claimed once due and only for a
    /// free slot, so none waits in one worker while another could run it.
    var horizon: TimeInterval { sharesBoard ? 0 : Worker.claimHorizon(lease: lease) }

    /// Feeds claimed ahead go back still due, for the next worker.
    mutating func giveBackClaimsAhead() async {
        for claim in ahead.takeAll() {
            try? await store.release(feed: claim.feed, worker: worker.name, next: claim.due)
        }
    }

    /// Takes the run requests left for a SQLite store; a request naming a feed the config does
    /// not have is refused.
    mutating func takeRunRequests() {
        guard let requestStore else { return }
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

    /// Requested passes first, each once its feed is not running and the feeds it
    /// depends on have ended; skipped when one of those (in the same request) failed.
    mutating func startRequestedPasses(group: inout DiscardingTaskGroup) {
        var waiting: [RequestedPass] = []
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
                answerIfComplete(item.request, forStore: requestStore)
                continue
            }
            let claim = ScheduleClaim(feed: item.feed.name, due: Date())
            running[item.feed.name] = claim
            worker.observer.worker(.passStarted(feed: item.feed.name, due: claim.due, lag: 0))
            let sink = sink
            group.addTask {
                let report = await item.engine.runFeed(item.feed)
                sink.yield(.requestedFinished(request: item.request, claim, report))
            }
        }
        requested = waiting
    }

    /// Due feeds claimed ahead start whenever a slot is free: at their due time (the wake
    /// ``scheduleWake(now:claimAt:group:)`` sets) or as a pass ends. A feed waits while one it
    /// depends on runs (until its report is in), or is due to start first.
    mutating func startDuePasses(group: inout DiscardingTaskGroup) async {
        let now = time.now()
        while running.count < slots,
            let claim = ahead.firstDue(
                at: now,
                where: { claim in
                    running[claim.feed] == nil
                        && !(parents[claim.feed]?.contains {
                            running[$0] != nil || releasing.contains($0) || ahead.isDue($0, at: now)
                        } ?? false)
                })
        {
            ahead.remove(claim.feed)
            guard let feed = scheduled[claim.feed] else {
                // No longer scheduled (the config was reloaded): given back as it was.
                try? await store.release(feed: claim.feed, worker: worker.name, next: claim.due)
                continue
            }
            let lag = now.timeIntervalSince(claim.due)
            // A parent whose last pass failed: skipped, and due again as a failed pass
            // is (`retry_failed_after`), by when the parent may have committed.
            if let parent = feed.dependsOn.compactMap({ blockingPasses[$0] }).first {
                let report = FeedReport.skipped(feed, because: parent)
                let next = worker.nextDue(claim, report: report, schedule: feed.schedule, time: time)
                try? await store.release(feed: claim.feed, worker: worker.name, next: next)
                remember(report)
                worker.observer.worker(.passFinished(report, due: claim.due, lag: lag, next: next))
                continue
            }
            running[claim.feed] = claim
            worker.observer.worker(.passStarted(feed: claim.feed, due: claim.due, lag: lag))
            startPass(feed, claim: claim, lag: lag, group: &group)
        }
    }

    /// Runs the pass of a claimed feed in the group, and gives the feed back as it ends.
    private func startPass(
        _ feed: FeedConfig, claim: ScheduleClaim, lag: TimeInterval, group: inout DiscardingTaskGroup
    ) {
        let (worker, engine, time, sink, current, store) = (worker, engine, time, sink, current, store)
        group.addTask {
            let report = await worker.pass(feed, engine: engine, time: time)
            // The slot is free now; the feed is given back here rather than by the
            // loop, whose next claim a write of the store would hold back.
            sink.yield(.passEnded(feed: claim.feed))
            let next = worker.nextDue(claim, report: report, schedule: current.schedule(of: claim.feed), time: time)
            var releaseFailure: String?
            do {
                try await store.release(feed: claim.feed, worker: worker.name, next: next)
            } catch {
                releaseFailure = "\(error)"
            }
            sink.yield(.finished(claim, report, lag: lag, next: next, releaseFailure: releaseFailure))
        }
    }

    /// Claims that waited a third of their lease, or the horizon past their due time,
    /// without a free slot go back, still due, for a worker that has one.
    mutating func giveBackStaleClaims(now: Date) async {
        let stale =
            sharesBoard
            ? ahead.takeStale(
                claimedBefore: now.addingTimeInterval(-lease.seconds / 3),
                dueBefore: now.addingTimeInterval(-horizon)) : []
        for claim in stale {
            gaveBack = true
            do {
                try await store.release(feed: claim.feed, worker: worker.name, next: claim.due)
            } catch {
                boardFailing = true
                unreleased[claim.feed] = claim.due
                worker.observer.worker(.boardFailed("giving back \(claim.feed): \(error)"))
            }
        }
    }

    /// The board is asked for the feeds due within the horizon, up to as many again as
    /// the slots beyond those running, in the background: the loop goes on starting
    /// passes.
    ///
    /// - Returns: when to ask the board next, while feeds wait to be claimed and no claim is
    ///   under way; else `nil`.
    mutating func claimIfDue(now: Date, group: inout DiscardingTaskGroup) async -> Date? {
        let limit = (sharesBoard ? 1 : 2) * slots - running.count - ahead.count
        guard !claiming, limit > 0 else { return nil }
        let busy = busyFeeds
        guard busy.count(where: { scheduled[$0] != nil }) < scheduled.count else { return nil }
        if now >= claimAt {
            do {
                try await giveBackUnreleased()
                startClaim(excluding: Array(busy.union(foreign)), limit: limit, group: &group)
            } catch {
                boardFailing = true
                worker.observer.worker(.boardFailed("\(error)"))
                claimAt = now.addingTimeInterval(worker.pollInterval.seconds)
            }
        }
        return claiming ? nil : claimAt
    }

    /// The feeds this worker cannot claim now: running, being given back, claimed already, or
    /// waiting for a parent that runs or is being given back. Found from those few, never by
    /// going through every scheduled feed, which the loop did after each event.
    var busyFeeds: Set<String> {
        var busy = Set(running.keys).union(releasing).union(ahead.feeds)
        for parent in running.keys { busy.formUnion(children[parent] ?? []) }
        for parent in releasing { busy.formUnion(children[parent] ?? []) }
        return busy
    }

    /// Gives back the feeds whose giving back failed before, by name, until one fails again.
    private mutating func giveBackUnreleased() async throws {
        for (feed, next) in unreleased.sorted(by: { $0.key < $1.key }) {
            try await store.release(feed: feed, worker: worker.name, next: next)
            unreleased[feed] = nil
        }
    }

    /// Claims up to `limit` of the board's feeds but `excluded` in the group (``Worker/claim``),
    /// which answers with ``Event/claimed(_:asked:claimAgain:failure:)``.
    private mutating func startClaim(excluding excluded: [String], limit: Int, group: inout DiscardingTaskGroup) {
        claiming = true
        let (store, time, lease, horizon, sink) = (store, time, lease, horizon, sink)
        let (name, poll, logger) = (worker.name, worker.pollInterval.seconds, worker.logger)
        group.addTask {
            let answer = await Worker.claim(
                excluding: excluded, store: store, worker: name, time: time, lease: lease,
                horizon: horizon, poll: poll, limit: limit, logger: logger)
            sink.yield(answer)
        }
    }

    /// Wakes the loop at the poll, or sooner: when the board is to be asked again
    /// (`claimAt`), when a claim ahead is due while a slot is free, or when one goes stale;
    /// unless a wake as soon is set already.
    mutating func scheduleWake(now: Date, claimAt: Date?, group: inout DiscardingTaskGroup) {
        var wakeAt = now.addingTimeInterval(worker.pollInterval.seconds)
        if let claimAt { wakeAt = min(wakeAt, claimAt) }
        if running.count < slots, let due = ahead.nextDue(after: now) { wakeAt = min(wakeAt, due) }
        if sharesBoard, let stale = ahead.nextStale(age: lease.seconds / 3, wait: horizon) {
            wakeAt = min(wakeAt, stale)
        }
        guard pendingWake.map({ wakeAt < $0 }) ?? true else { return }
        pendingWake = wakeAt
        let (time, sink) = (time, sink)
        group.addTask {
            let delay = wakeAt.timeIntervalSince(time.now())
            await MonotonicSleep.sleep(seconds: delay)
            sink.yield(.wake(wakeAt))
        }
    }
}
