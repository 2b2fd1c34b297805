import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// `feedwork run`: one pass over the feeds.
struct RunCommand: AsyncParsableCommand, LogLevelChoosing {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run every enabled feed in one pass.",
        discussion: """
            Each feed's pass commits in one transaction: a feed that fails keeps its previous rows \
            while the others commit. A feed's status is ok, ok_with_rejects (some records rejected, \
            within its max_reject_ratio), stale (served from the cache after a network failure) or \
            failed (nothing committed; also a pass rejecting more than max_reject_ratio). A feed \
            that depends on others (depends_on:, or for_each: over an entity they write) starts \
            once they have ended, and is skipped when one of them did not commit. Exit status: 0 \
            when no feed failed, 1 when any failed, 2 for a config error.

            Examples:
              feedwork run
              feedwork run --feed bbc-fruit --feed leboncoin
              feedwork run --offline --json
              feedwork run --full-refresh --feed orders   (an incremental feed reads everything again)
              feedwork run -v                     (each request, retry and cache decision on stderr)
            """)

    @OptionGroup var options: ConfigOptions

    @Option(
        name: .customLong("feed"), help: "Run only this feed (repeatable); disabled feeds may be named.",
        completion: Completions.feeds)
    var feeds: [String] = []

    @Flag(help: "Use only cached responses; make no network request.")
    var offline = false

    @Flag(help: "Print the run report as JSON on stdout.")
    var json = false

    @Flag(
        help:
            "Ignore what earlier passes stored (incremental cursors, page summaries, bookmarks) for this run: read everything again."
    )
    var fullRefresh = false

    @Option(help: "How long to wait for another run on the same store (e.g. 30s).")
    var wait: String = "30s"

    @Option(
        help: ArgumentHelp(
            "auto: redrawn in place on a terminal, else a plain line per feed under way every --progress-every; always: redrawn in place even off a terminal; never.",
            valueName: "when"))
    var progress: ProgressChoice = .auto

    @Option(help: "How often progress is written when stderr is not a terminal (e.g. 5s).")
    var progressEvery: String = "5s"

    @OptionGroup var logging: LoggingOptions

    enum ProgressChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func run() async throws {
        let config = try await options.loadToRun()
        for name in feeds where config.feed(named: name) == nil {
            throw CommandFailure.usage(
                "no feed named '\(name)' in \(config.file); feeds: \(config.feeds.map(\.name).joined(separator: ", "))")
        }
        // libcurl (with its 30 libraries, about 5 ms of CPU) loads on another thread while the
        // store opens, when a feed to run names a URL to fetch; others load it at their first
        // transfer, and a run of local files or --offline never does.
        if !offline && selectedFeeds(of: config).contains(where: \.namesRemoteURL) {
            CurlHTTPClient.preload()
        }
        guard let waitDuration = FeedDuration(parsing: wait) else {
            throw CommandFailure.usage(
                "--wait: '\(wait)' is not a duration (e.g. 30s)")
        }
        if let report = try await handedToWorker(config) {
            try finish(report, config: config, interrupted: false)
            return
        }
        let engine: Engine
        do {
            var opened = try await Engine.open(config, wait: waitDuration, offline: offline)
            opened.fullRefresh = fullRefresh
            engine = opened
        } catch {
            throw CommandFailure.failed("\(error)")
        }
        let display = ProgressDisplay(mode: try progressMode(), progress: RunProgress())
        let feeds = feeds
        let (report, interrupted) = await Interrupts.cancelling {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await display.refresh() }
                let report = await engine.run(feeds: feeds, live: display.progress) { display.finished($0) }
                group.cancelAll()
                display.clear()
                return report
            }
        } onFirst: {
            Console.error("interrupted: stopping; the feeds in progress roll back (Ctrl-C again to quit at once)")
        }
        // A store left open keeps its write-ahead log for the next run to read: a failure to
        // close loses nothing, so it does not fail the run.
        try? await engine.close()
        withExtendedLifetime(engine) {}
        try finish(report, config: config, interrupted: interrupted)
    }

    /// The feeds this run runs: those named with --feed, else every enabled one.
    private func selectedFeeds(of config: FeedsConfig) -> [FeedConfig] {
        feeds.isEmpty ? config.feeds.filter(\.enabled) : config.feeds.filter { feeds.contains($0.name) }
    }

    /// Prints the report and ends as its feeds did.
    private func finish(_ report: RunReport, config: FeedsConfig, interrupted: Bool) throws {
        if json {
            Console.print(JSONText.encode(report))
        } else {
            Console.print(ReportPrinter.table(report, storePath: config.storeDescription))
        }
        if interrupted {
            let selected = feeds.isEmpty ? config.feeds.filter(\.enabled).map(\.name) : feeds
            for line in ReportPrinter.interruptSummary(report, selected: selected) { Console.error(line) }
            throw CommandFailure(status: Interrupts.exitStatus, lines: [])
        }
        if !report.succeeded { throw CommandFailure.reported }
    }

    /// When a `feedwork worker` holds the SQLite store, the feeds run in the worker (which
    /// runs them at once) and this is their report; nil when no worker holds it, or it stopped
    /// before answering, so the run opens the store itself. Ctrl-C withdraws a request the
    /// worker has not taken yet.
    private func handedToWorker(_ config: FeedsConfig) async throws -> RunReport? {
        guard let storePath = config.storeLocation.filePath, let holder = StoreHolder.current(forStore: storePath),
            holder.kind == .worker
        else { return nil }
        let names = feeds.isEmpty ? config.feeds.filter(\.enabled).map(\.name) : feeds
        if !logging.quiet {
            Console.error("\(holder.description) holds the store: it runs \(names.joined(separator: ", ")) now")
        }
        let request = RunRequest(feeds: names, offline: offline, fullRefresh: fullRefresh)
        let (outcome, interrupted) = await Interrupts.cancelling {
            do {
                return Result<RunAnswer?, any Error>.success(
                    try await RunRequests.handOff(request, storePath: storePath))
            } catch {
                return .failure(error)
            }
        } onFirst: {
            Console.error("interrupted: the request is withdrawn (a pass the worker has started runs to its end)")
        }
        if interrupted { throw CommandFailure(status: Interrupts.exitStatus, lines: []) }
        let answer: RunAnswer?
        do {
            answer = try outcome.get()
        } catch {
            throw CommandFailure.failed("cannot ask the worker to run the feeds: \(error)")
        }
        guard let answer else { return nil }
        if let refused = answer.refused { throw CommandFailure.failed(refused) }
        return answer.report
    }

    /// How progress is shown: `--progress`, a terminal or not, `-q`.
    private func progressMode() throws -> ProgressDisplay.Mode {
        guard let every = FeedDuration(parsing: progressEvery), every.seconds > 0 else {
            throw CommandFailure.usage("--progress-every: '\(progressEvery)' is not a duration above zero (e.g. 5s)")
        }
        let live = ProgressDisplay.Mode.live(interval: .milliseconds(200))
        switch progress {
        case .never: return .off
        case .always: return live
        case .auto:
            if logging.quiet { return .off }
            return Console.stderrIsTerminal ? live : .lines(interval: .milliseconds(Int64(every.seconds * 1000)))
        }
    }
}
