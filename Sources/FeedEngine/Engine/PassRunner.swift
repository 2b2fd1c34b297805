import FeedKit
import FeedStore
import Foundation
import Logging

/// One feed's pass as a sequence of steps, which ``Engine/runFeed(_:live:)`` takes in order
/// for `feedwork run` and `feedwork worker` alike: ``lease()``, ``start(continuing:)``,
/// ``runAdapter(_:)``, ``finish(_:after:)``, ``deliverOutbox(_:)``; the steps from
/// ``start(continuing:)`` on again for each further pass the adapter asks for.
///
/// A step that fails hands its error to the next one instead of throwing past it, except the
/// first two: a pass that never holds its feed or never gets a run row has nothing to finish
/// (``notStarted(_:)``).
struct PassRunner: Sendable {
    let engine: Engine
    let feed: FeedConfig
    /// What every error, note and log line leaving the pass goes through.
    let redaction: PassRedaction
    /// The engine's logger, through ``redaction``: for the pass's lines, the fetcher's and the
    /// adapter's.
    let logger: Logger

    /// A pass that holds its feed and has its run row: what the steps after ``start()`` work on.
    struct Started: Sendable {
        let run: Int64
        /// When the pass started: once it held its feed, so one feed's runs never overlap.
        let startedAt: Date
        let context: FetchContext
        let transaction: FeedTransaction
        let backend: EnginePassBackend
    }

    init(engine: Engine, feed: FeedConfig) {
        self.engine = engine
        self.feed = feed
        redaction = PassRedaction(config: engine.config.redactor, adapterSecrets: feed.adapter.secrets)
        logger = redaction.logger(engine.logger)
    }

    /// Step 1: waits (up to ``Engine/wait``) until no other process runs the feed.
    ///
    /// - Returns: the lease, held until the pass has ended.
    func lease() async throws -> AnyObject? {
        try await engine.store.lease(of: feed.name, wait: engine.wait)
    }

    /// Step 2: records the run's start in `_runs` and opens the pass's transaction.
    ///
    /// - Parameter continuing: whether the pass continues the one before it in the same run
    ///   (``FeedKit/FeedPass/continueAfterCommit()``): it reads the `_state` that pass stored,
    ///   even in a `--full-refresh` run.
    func start(continuing: Bool = false) async throws -> Started {
        let store = engine.store
        let startedAt = Date()
        let origin = AdapterOrigin(name: feed.adapterName, module: AdapterProvenance(type(of: feed.adapter)).module)
        let run = try await store.startRun(feed: feed.name, adapter: origin, at: startedAt)
        logger.info("\(feed.name): run \(run) started")
        var context = FetchContext(
            feed: feed.name, baseDirectory: URL(fileURLWithPath: engine.config.directory), policy: feed.policy,
            offline: engine.offline, cache: PassResponseCache(store: store, feed: feed.name),
            redactor: redaction.redactor, logger: logger)
        context.budgetGate = feed.policy.budget.map(engine.budgets.gate)
        let bindings = feed.adapter.entities.map { binding in
            EntityBinding(binding.schema, mode: binding.mode, contract: feed.schemaContract)
        }
        let transaction = store.passTransaction(
            feed: feed.name, run: run, stamp: Timestamp.string(startedAt), bindings: bindings)
        let backend = EnginePassBackend(
            feed: feed.name, store: store, fetcher: engine.fetcher, context: context, transaction: transaction,
            bindings: bindings, readsStoredState: continuing || !engine.fullRefresh, contract: feed.schemaContract)
        return Started(run: run, startedAt: startedAt, context: context, transaction: transaction, backend: backend)
    }

    /// Step 3: runs the feed's adapter on a ``FeedPass`` whose writes go into the pass's
    /// transaction.
    ///
    /// - Returns: the error the adapter threw, or `nil`.
    func runAdapter(_ pass: Started) async -> (any Error)? {
        let feedPass = FeedPass(
            feed: feed.name, runID: pass.run, startedAt: engine.startDate ?? pass.startedAt,
            redactor: redaction.redactor, baseDirectory: pass.context.baseDirectory, isOffline: engine.offline,
            backend: pass.backend)
        do {
            try await feed.adapter.run(feedPass)
            return nil
        } catch {
            return error
        }
    }

    /// Step 4: commits the pass with its run record when the adapter succeeded, its `replace`
    /// deletions stay within `max_delete_ratio` and `allow_empty` and its rejects within
    /// `max_reject_ratio`; otherwise rolls it back and records the failed run.
    ///
    /// - Parameter error: what the adapter threw, if it failed.
    /// - Returns: the outcome the run row keeps.
    func finish(_ pass: Started, after error: (any Error)?) async -> RunOutcome {
        do {
            if let error { throw error }
            return try await commit(pass)
        } catch {
            return await rollBack(pass, error: error)
        }
    }

    /// Step 5: sends the feed's queued `_outbox` events (unless the run is offline, the engine
    /// does not deliver, or the run was interrupted).
    ///
    /// - Returns: how many were delivered and how many remain.
    func deliverOutbox(_ pass: Started) async -> (delivered: Int, pending: Int) {
        guard !engine.offline && engine.deliversOutbox && !Task.isCancelled else { return (0, 0) }
        return await Outbox.deliver(
            feed: feed.name, store: engine.store, fetcher: engine.fetcher, context: pass.context, redaction: redaction)
    }

    /// The outcome of a pass that failed before it started (steps 1 and 2), with `error`.
    func notStarted(_ error: any Error) -> RunOutcome {
        redaction.outcome(
            RunOutcome(
                status: .failed, counts: WriteCounts(), requests: 0, attempts: 0, bytes: 0,
                error: String(describing: error), notes: [], finished: Date()))
    }

    /// Finishes the pass's writes, checks its rejects, records its run and commits.
    private func commit(_ pass: Started) async throws -> RunOutcome {
        let (feed, backend, redaction) = (feed, pass.backend, redaction)
        try await pass.transaction.send { scope in
            let (counts, notes) = try scope.finishWrites()
            try DeleteLimit.check(
                scope.replaceTallies, maxRatio: feed.maxDeleteRatio, allowsEmpty: feed.allowsEmpty, feed: feed.name)
            try RejectLimit.check(
                counts, maxRatio: feed.maxRejectRatio, feed: feed.name, firstReject: scope.firstReject)
            for note in notes { backend.note(note) }
            let outcome = redaction.outcome(backend.outcome(counts: counts, error: nil, finished: Date()))
            backend.recordedOutcome.withLock { $0 = outcome }
            try scope.recordRun(outcome)
        }
        try await pass.transaction.finish(commit: true)
        // Set by the last job: the commit returns once every job ran.
        let recorded = backend.recordedOutcome.withLock { $0 }
        let outcome =
            recorded ?? redaction.outcome(backend.outcome(counts: WriteCounts(), error: nil, finished: Date()))
        logger.info("\(feed.name): run \(pass.run) committed (\(outcome.status.rawValue)): \(outcome.counts)")
        return outcome
    }

    /// Rolls the pass back and records its run as failed (or interrupted), with the rejects
    /// that rolled back (they say why it failed) and the outbox events the adapter asks for
    /// after a failure.
    private func rollBack(_ pass: Started, error: any Error) async -> RunOutcome {
        try? await pass.transaction.finish(commit: false)
        let interrupted = error is CancellationError || Task.isCancelled
        let message = interrupted ? "interrupted; nothing was changed" : String(describing: error)
        var outcome = redaction.outcome(pass.backend.outcome(counts: WriteCounts(), error: message, finished: Date()))
        outcome.status = interrupted ? .interrupted : .failed
        logger.info("\(feed.name): run \(pass.run) rolled back: \(outcome.error ?? "")")
        let events =
            interrupted
            ? []
            : feed.adapter.outboxAfterFailure(error, elapsedMilliseconds: Engine.milliseconds(since: pass.startedAt))
        // The rejects rolled back with the pass are kept with its run: they say why it failed.
        // So are its credentials: a refresh token rotated during the pass is the only one left.
        try? await engine.store.recordFailedRun(
            pass.run, feed: feed.name, outcome: outcome, outbox: events.map(redaction.redactor.seal),
            rejects: interrupted ? [] : pass.backend.rejectsOfThePass,
            credentials: pass.backend.credentials.withLock { $0 })
        return outcome
    }
}
