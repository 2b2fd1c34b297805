import FeedKit
import FeedStore
import Foundation
import Logging

/// Runs feeds: each feed's pass in its own transaction, several feeds at once.
///
/// A feed that fails leaves its rows exactly as they were while the other feeds commit.
public struct Engine: Sendable {
    public private(set) var config: FeedsConfig
    /// The store, opened and locked by ``open(_:fetcher:storePath:wait:offline:startDate:deliversOutbox:)``.
    let store: Store
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
    /// How long a media URL whose fetch failed waits before a pass tries it again, doubled with
    /// each further failure (at most a day); see ``MediaMirror``.
    public var mediaRetryBase: TimeInterval = 60
    /// The request budgets' gates, shared by the engine's copies (a worker's passes, and a
    /// reloaded config's) so that a budget counts every request the process sends.
    let budgets = RequestBudgets()

    init(
        config: FeedsConfig, store: Store, fetcher: any Fetching, offline: Bool = false,
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
        if let path = store.file { StoreHolder.forget(forStore: path) }
        try await store.close()
    }

    /// Runs the enabled feeds (or the named ones, enabled or not), `config.concurrency` at a time.
    ///
    /// A feed starts once the feeds it depends on (``FeedConfig/dependsOn``) among these have
    /// ended; when one of them did not commit, the feed is skipped (``FeedReport/Status/skipped``).
    ///
    /// - Parameters:
    ///   - live: where the feeds under way show their counters as they go, for a progress display.
    ///   - progress: called as each feed finishes.
    /// - Returns: one report per feed, in config order.
    public func run(
        feeds names: [String] = [], live: RunProgress? = nil, progress: (@Sendable (FeedReport) -> Void)? = nil
    ) async -> RunReport {
        let selected = names.isEmpty ? config.feeds.filter(\.enabled) : config.feeds.filter { names.contains($0.name) }
        let selectedNames = Set(selected.map(\.name))
        var reports = [FeedReport?](repeating: nil, count: selected.count)
        var ended: [String: FeedReport] = [:]
        await withTaskGroup(of: (Int, FeedReport).self) { group in
            var waiting = Array(selected.indices)
            var running = 0
            /// Starts the waiting feeds whose dependencies have ended, in config order, while
            /// there is room; skips those a dependency let down (which may let down others).
            func startReady() {
                var changed = true
                while changed {
                    changed = false
                    // After an interrupt, the feeds not started yet are left alone.
                    guard !Task.isCancelled else { return }
                    for index in waiting {
                        let feed = selected[index]
                        let parents = feed.dependsOn.filter(selectedNames.contains)
                        guard parents.allSatisfy({ ended[$0] != nil }) else { continue }
                        if let parent = parents.compactMap({ ended[$0] }).first(where: { !$0.letsDependentsRun }) {
                            let report = FeedReport.skipped(feed, because: parent)
                            logger.info("\(feed.name): skipped, since \(parent.feed) did not commit")
                            reports[index] = report
                            ended[feed.name] = report
                            progress?(report)
                        } else {
                            guard running < max(1, config.concurrency) else { return }
                            running += 1
                            group.addTask { (index, await runFeed(feed, live: live)) }
                        }
                        waiting.removeAll { $0 == index }
                        changed = true
                        break
                    }
                }
            }
            startReady()
            while let (index, report) = await group.next() {
                running -= 1
                reports[index] = report
                ended[report.feed] = report
                progress?(report)
                startReady()
            }
        }
        return RunReport(feeds: reports.compactMap { $0 })
    }

    /// Runs one feed's pass and reports it; never throws. The steps are ``PassRunner``'s.
    ///
    /// When the adapter asks for another pass once this one commits
    /// (``FeedKit/FeedPass/continueAfterCommit()``, a backfill's date windows), the passes follow
    /// one another under the same lease until one does not ask, fails or is interrupted; each
    /// commits on its own, and the report sums them (``FeedReport/summing(_:milliseconds:)``).
    public func runFeed(_ feed: FeedConfig, live: RunProgress? = nil) async -> FeedReport {
        let asked = Date()
        let runner = PassRunner(engine: self, feed: feed)
        let lease: AnyObject?
        do {
            lease = try await runner.lease()
        } catch {
            return FeedReport(
                feed: feed.name, adapter: feed.adapterName, run: nil, outcome: runner.notStarted(error),
                milliseconds: Self.milliseconds(since: asked))
        }
        defer { live?.finished(feed.name) }
        let (first, asksMore) = await runPass(runner, continuing: false, live: live)
        var continues = asksMore
        var passes = [first.report]
        while continues, passes[passes.count - 1].letsDependentsRun, !Task.isCancelled {
            let next: (report: FeedReport, startedAt: Date?)
            (next, continues) = await runPass(runner, continuing: true, live: live)
            passes.append(next.report)
        }
        withExtendedLifetime(lease) {}
        let milliseconds = Self.milliseconds(since: first.startedAt ?? asked)
        return FeedReport.summing(passes, milliseconds: milliseconds) ?? first.report
    }

    /// One pass of ``runFeed(_:live:)``, and whether the adapter asked for another.
    private func runPass(_ runner: PassRunner, continuing: Bool, live: RunProgress?) async -> (
        (report: FeedReport, startedAt: Date?), continues: Bool
    ) {
        let feed = runner.feed
        let pass: PassRunner.Started
        do {
            pass = try await runner.start(continuing: continuing)
        } catch {
            let report = FeedReport(
                feed: feed.name, adapter: feed.adapterName, run: nil, outcome: runner.notStarted(error),
                milliseconds: 0)
            return ((report, nil), false)
        }
        live?.started(feed.name, at: pass.startedAt, backend: pass.backend)
        let outcome = await runner.finish(pass, after: await runner.runAdapter(pass))
        let media = await runner.mirrorMedia(pass, after: outcome)
        let outbox = await runner.deliverOutbox(pass)
        var report = FeedReport(
            feed: feed.name, adapter: feed.adapterName, run: pass.run, outcome: outcome,
            milliseconds: Self.milliseconds(since: pass.startedAt), outbox: outbox)
        report.media = media?.counts
        report.notes += media?.notes ?? []
        return ((report, pass.startedAt), pass.backend.continues)
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
