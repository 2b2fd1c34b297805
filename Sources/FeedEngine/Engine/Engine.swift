import FeedKit
import Foundation
import Logging

/// Runs feeds: each feed's pass in its own transaction, several feeds at once.
///
/// A feed that fails leaves its rows exactly as they were while the other feeds commit.
public struct Engine: Sendable {
    public private(set) var config: FeedsConfig
    /// The store, opened and locked by ``open(_:fetcher:storePath:wait:offline:startDate:deliversOutbox:)``.
    let store: any StoreDriver
    public let fetcher: any Fetching
    /// Use only cached responses.
    public var offline: Bool
    /// The moment every pass starts at (``FeedPass/startedAt``), instead of the current time.
    ///
    /// Date templates (`{{today}}`) and dates adapters derive from the start render from it, so
    /// a fixture replay set to the recording's start makes the same requests and records on any
    /// day. `_runs` and the rows' `_first_seen`/`_last_seen` still use the real clock.
    public var startDate: Date?
    /// Whether queued `_outbox` events are sent after each pass. Fixture runs turn it off: events
    /// such as timings differ on every run and are not part of what a feed produces.
    public var deliversOutbox: Bool
    /// Passes ignore what earlier passes stored in `_state` (`feedwork run --full-refresh`): an
    /// incremental feed starts from its `start` again, and page summaries and bookmarks count
    /// as absent. What the pass stores replaces them as usual, committed with the pass.
    public var fullRefresh = false
    /// How long a pass waits for its feed's lease when another process runs the feed (on a
    /// PostgreSQL store; a SQLite store is waited for as a whole when the engine opens).
    public var wait: FeedDuration = .seconds(30)
    /// Where passes and requests are logged: each feed's start and end (info), and through the
    /// fetcher each request, retry and cache decision (debug and info).
    public var logger = Logger(label: "feedwork")
    /// The request budgets' gates, shared by the engine's copies (a worker's passes, and a
    /// reloaded config's) so that a budget counts every request the process sends.
    let budgets = RequestBudgets()

    init(
        config: FeedsConfig, store: any StoreDriver, fetcher: any Fetching, offline: Bool = false,
        startDate: Date? = nil,
        deliversOutbox: Bool = true
    ) {
        self.config = config
        self.store = store
        self.fetcher = fetcher
        self.offline = offline
        self.startDate = startDate
        self.deliversOutbox = deliversOutbox
    }

    /// Closes the store once the engine is done with it (SQLite then folds its write-ahead log
    /// into the store file, so the next run starts without reading it); nothing may run on
    /// the engine afterwards. A store not closed loses nothing.
    public func close() async throws {
        if let path = (store as? SQLiteStore)?.path { StoreHolder.forget(forStore: path) }
        try await store.close()
    }

    /// Runs the enabled feeds (or the named ones, enabled or not), `config.concurrency` at a time.
    ///
    /// - Parameters:
    ///   - live: where the feeds under way show their counters as they go, for a progress display.
    ///   - progress: called as each feed finishes.
    /// - Returns: one report per feed, in config order.
    public func run(
        feeds names: [String] = [], live: RunProgress? = nil, progress: (@Sendable (FeedReport) -> Void)? = nil
    ) async -> RunReport {
        let selected = names.isEmpty ? config.feeds.filter(\.enabled) : config.feeds.filter { names.contains($0.name) }
        var reports = [FeedReport?](repeating: nil, count: selected.count)
        await withTaskGroup(of: (Int, FeedReport).self) { group in
            var next = 0
            func startNext() {
                // After an interrupt, the feeds not started yet are left alone.
                guard next < selected.count, !Task.isCancelled else { return }
                let index = next
                let feed = selected[index]
                next += 1
                group.addTask { (index, await runFeed(feed, live: live)) }
            }
            for _ in 0..<max(1, config.concurrency) { startNext() }
            while let (index, report) = await group.next() {
                reports[index] = report
                progress?(report)
                startNext()
            }
        }
        return RunReport(feeds: reports.compactMap { $0 })
    }

    /// Runs one feed's pass and reports it; never throws.
    public func runFeed(_ feed: FeedConfig, live: RunProgress? = nil) async -> FeedReport {
        var started = Date()
        let secrets = feed.adapter.secrets
        let redactor = secrets.isEmpty ? config.redactor : config.redactor.merging(Redactor(secrets: secrets))
        let adapter = feed.adapter
        let bindings = adapter.entities.map { binding in
            EntityBinding(binding.schema, mode: binding.mode, contract: feed.schemaContract)
        }
        let runID: Int64
        let lease: AnyObject?
        do {
            lease = try await store.lease(of: feed.name, wait: wait)
            started = Date()  // the pass starts once it holds its feed, so one feed's runs never overlap
            runID = try await store.startRun(feed: feed.name, adapter: feed.adapterName, at: started)
        } catch {
            let outcome = RunOutcome(
                status: .failed, counts: WriteCounts(), requests: 0, attempts: 0, bytes: 0,
                error: redactor.redact(String(describing: error)), notes: [], finished: Date())
            return FeedReport(
                feed: feed.name, adapter: feed.adapterName, run: nil, outcome: outcome,
                milliseconds: Self.milliseconds(since: started))
        }
        logger.info("\(feed.name): run \(runID) started")
        var context = FetchContext(
            feed: feed.name, baseDirectory: URL(fileURLWithPath: config.directory), policy: feed.policy,
            offline: offline, cache: PassResponseCache(store: store, feed: feed.name), redactor: redactor,
            logger: logger)
        context.budgetGate = feed.policy.budget.map(budgets.gate)
        let stamp = Timestamp.string(started)
        let transaction = store.passTransaction(feed: feed.name, run: runID, stamp: stamp, bindings: bindings)
        let backend = EnginePassBackend(
            feed: feed.name, store: store, fetcher: fetcher, context: context, transaction: transaction,
            bindings: bindings, readsStoredState: !fullRefresh, contract: feed.schemaContract)
        live?.started(feed.name, at: started, backend: backend)
        defer { live?.finished(feed.name) }
        let pass = FeedPass(
            feed: feed.name, runID: runID, startedAt: startDate ?? started, redactor: redactor,
            baseDirectory: context.baseDirectory, isOffline: offline, backend: backend)
        var outcome: RunOutcome
        do {
            try await adapter.run(pass)
            try await transaction.send { scope in
                let (counts, notes) = try scope.finishWrites()
                try RejectLimit.check(
                    counts, maxRatio: feed.maxRejectRatio, feed: feed.name, firstReject: scope.firstReject)
                for note in notes { backend.note(redactor.redact(note)) }
                let outcome = backend.outcome(counts: counts, error: nil, finished: Date())
                backend.recordedOutcome.withLock { $0 = outcome }
                try scope.recordRun(outcome)
            }
            try await transaction.finish(commit: true)
            // Set by the last job: the commit returns once every job ran.
            let recorded = backend.recordedOutcome.withLock { $0 }
            outcome = recorded ?? backend.outcome(counts: WriteCounts(), error: nil, finished: Date())
            logger.info("\(feed.name): run \(runID) committed (\(outcome.status.rawValue)): \(outcome.counts)")
        } catch {
            try? await transaction.finish(commit: false)
            let interrupted = error is CancellationError || Task.isCancelled
            let message = interrupted ? "interrupted; nothing was changed" : redactor.redact(String(describing: error))
            logger.info("\(feed.name): run \(runID) rolled back: \(message)")
            outcome = backend.outcome(counts: WriteCounts(), error: message, finished: Date())
            outcome.status = interrupted ? .interrupted : .failed
            let events =
                interrupted
                ? [] : adapter.outboxAfterFailure(error, elapsedMilliseconds: Self.milliseconds(since: started))
            // The rejects rolled back with the pass are kept with its run: they say why it failed.
            try? await store.recordFailedRun(
                runID, feed: feed.name, outcome: outcome, outbox: events.map(redactor.seal),
                rejects: interrupted ? [] : backend.rejectsOfThePass)
        }
        var outbox = (delivered: 0, pending: 0)
        if !offline && deliversOutbox && !Task.isCancelled {
            outbox = await Outbox.deliver(feed: feed.name, store: store, fetcher: fetcher, context: context)
        }
        withExtendedLifetime(lease) {}
        return FeedReport(
            feed: feed.name, adapter: feed.adapterName, run: runID, outcome: outcome,
            milliseconds: Self.milliseconds(since: started), outbox: outbox)
    }

    /// The same engine (store, lock, fetcher) running the feeds of `config`, whose store must
    /// be this one's.
    func reconfigured(_ config: FeedsConfig) -> Engine {
        var engine = self
        engine.config = config
        return engine
    }

    static func milliseconds(since start: Date) -> Int { Int((Date().timeIntervalSince(start) * 1000).rounded()) }
}
