import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// `feedwork run`: one pass over the feeds.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run every enabled feed in one pass.",
        discussion: """
            Each feed's pass commits in one transaction: a feed that fails keeps its previous rows \
            while the others commit. A feed's status is ok, ok_with_rejects (some records rejected, \
            within its max_reject_ratio), stale (served from the cache after a network failure) or \
            failed (nothing committed; also a pass rejecting more than max_reject_ratio). Exit \
            status: 0 when no feed failed, 1 when any failed, 2 for a config error.

            Examples:
              feedwork run
              feedwork run --feed bbc-fruit --feed leboncoin
              feedwork run --offline --json
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

    @Option(help: "How long to wait for another run on the same store (e.g. 30s).")
    var wait: String = "30s"

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        let config = try options.load()
        for name in feeds where config.feed(named: name) == nil {
            throw CommandFailure.usage(
                "no feed named '\(name)' in \(config.file); feeds: \(config.feeds.map(\.name).joined(separator: ", "))")
        }
        guard let waitDuration = FeedDuration(parsing: wait) else {
            throw CommandFailure.usage(
                "--wait: '\(wait)' is not a duration (e.g. 30s)")
        }
        let engine: Engine
        do {
            engine = try await Engine.open(config, wait: waitDuration, offline: offline)
        } catch {
            throw CommandFailure.failed("\(error)")
        }
        let live = Console.stderrIsTerminal && !json && !logging.quiet
        let feeds = feeds
        let (report, interrupted) = await Interrupts.cancelling {
            await engine.run(feeds: feeds) { report in
                if live { Console.error(ReportPrinter.progressLine(report)) }
            }
        } onFirst: {
            Console.error("interrupted: stopping; the feeds in progress roll back (Ctrl-C again to quit at once)")
        }
        withExtendedLifetime(engine) {}
        if json {
            Console.print(ReportPrinter.json(report))
        } else {
            Console.print(ReportPrinter.table(report, storePath: config.storePath))
        }
        if interrupted {
            let selected = feeds.isEmpty ? config.feeds.filter(\.enabled).map(\.name) : feeds
            for line in ReportPrinter.interruptSummary(report, selected: selected) { Console.error(line) }
            throw CommandFailure(status: Interrupts.exitStatus, lines: [])
        }
        if !report.succeeded { throw CommandFailure.reported }
    }
}
