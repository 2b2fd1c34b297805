import ArgumentParser
import FeedEngine
import FeedKit
import FeedServer
import Foundation
import Logging

/// `feedwork worker`: keeps the scheduled feeds fresh until stopped.
struct WorkerCommand: AsyncParsableCommand, LogLevelChoosing {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run each scheduled feed when it is due, until stopped.",
        discussion: """
            Feeds with `every:` or `cron:` (their own, or from `defaults:`) run when due, up to \
            `concurrency` at once; one line is printed per finished pass. On a PostgreSQL store any \
            number of workers share the schedule: each due feed runs on exactly one of them, and the \
            feeds of a worker that dies are taken over once its lease (`defaults: { lease: 60s }`) \
            runs out. On a SQLite store one worker runs at a time, and `feedwork run` beside it asks it \
            to run its feeds at once and prints their report.

            SIGTERM or Ctrl-C stops gracefully: no new pass starts and the passes under way get \
            --grace to finish, then roll back; exit status 0. A second Ctrl-C quits at once (130). \
            SIGHUP reloads feeds.yaml; a config with problems is reported and the old one kept.

            Examples:
              feedwork worker
              feedwork worker --metrics 127.0.0.1:9464      (GET /metrics and /healthz)
              feedwork worker --json --grace 1m --name box-1
            """)

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print each finished pass as a JSON line on stdout.")
    var json = false

    @Option(help: "How long passes under way may go on once the worker is told to stop (e.g. 30s).")
    var grace: String = "30s"

    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics at /metrics and a health check at /healthz on this address.",
            valueName: "host:port"))
    var metrics: String?

    @Option(help: "The worker's name in `feedwork list` (default: host:pid).")
    var name: String?

    @Option(help: "How long to wait for the store when another process holds it (a SQLite store; e.g. 10s).")
    var wait: String = "0s"

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        guard let graceDuration = FeedDuration(parsing: grace) else {
            throw CommandFailure.usage("--grace: '\(grace)' is not a duration (e.g. 30s)")
        }
        guard let waitDuration = FeedDuration(parsing: wait) else {
            throw CommandFailure.usage("--wait: '\(wait)' is not a duration (e.g. 10s)")
        }
        let metricsAddress = try metrics.map { text in
            guard let address = ListenAddress(parsing: text) else {
                throw CommandFailure.usage("--metrics: '\(text)' is not host:port (e.g. 127.0.0.1:9464)")
            }
            return address
        }
        let config = try await options.loadToRun()
        guard config.feeds.contains(where: { $0.enabled && $0.schedule != nil }) else {
            throw CommandFailure.usage(
                "no enabled feed in \(config.file) has a schedule; give feeds (or defaults:) `every: 15m` or `cron: \"0 6 * * *\"`"
            )
        }
        let engine: Engine
        do {
            engine = try await Engine.open(
                config, wait: waitDuration, holder: StoreHolder(kind: .worker, name: name ?? Worker.defaultName))
        } catch {
            throw CommandFailure.failed("\(error)")
        }
        let metricsRecorder = WorkerMetrics()
        let output = WorkerOutput(json: json, metrics: metricsRecorder, logger: Logger(label: "feedwork.worker"))
        var configured = Worker(engine: engine, name: name ?? Worker.defaultName, observer: output)
        configured.grace = graceDuration
        let worker = configured
        let (commands, control) = AsyncStream<WorkerControl>.makeStream()
        let signals = WorkerSignals(control: control) { [options] in try options.load() }
        if let metricsAddress {
            let server = MetricsServer(
                address: metricsAddress, metrics: metricsRecorder, logger: Logger(label: "feedwork.metrics"))
            try await server.serve { address in
                Console.error("feedwork worker: metrics at http://\(address)/metrics")
            } during: {
                try await worker.run(commands: commands)
            }
        } else {
            try await worker.run(commands: commands)
        }
        withExtendedLifetime(signals) {}
        try? await engine.close()  // as `run` does; a store left open loses nothing
        withExtendedLifetime(engine) {}
    }
}
