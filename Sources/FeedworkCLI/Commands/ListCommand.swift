import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// `feedwork list`: the feeds of a config with their last run and row counts.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "List the feeds with their last run's status and time, their row counts per entity and, for incremental feeds, their cursor.",
        discussion: """
            Once a feed has a schedule (`every:` or `cron:`), the list also shows it, when `feedwork \
            worker` runs the feed next, and which worker holds it while its pass runs.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print the feeds as JSON (an array, one object per feed) on stdout.")
    var json = false

    /// One feed as `--json` prints it.
    struct Report: Encodable {
        var feed: String
        var adapter: String
        var enabled: Bool
        /// When the last run started (ISO 8601), `nil` before the first.
        @NullWhenAbsent var lastRun: String?
        @NullWhenAbsent var status: String?
        /// Rows per entity the feed holds.
        var rows: [String: Int]
        /// An incremental feed's cursor: the greatest value its passes have committed.
        @NullWhenAbsent var cursor: String?
        /// The feed's schedule (`every 15m`, `cron 0 6 * * *`), `nil` when it has none.
        @NullWhenAbsent var schedule: String?
        /// When a worker runs it next (ISO 8601), `nil` until a worker put it on the schedule.
        @NullWhenAbsent var nextRun: String?
        /// The worker running its pass now.
        @NullWhenAbsent var worker: String?
        /// The images its rows name in media columns: referenced, mirrored, failed, bytes.
        @NullWhenAbsent var media: MediaSummary?
    }

    func run() async throws {
        let config = try options.loadToRead()
        // Read-only, so a read-only store, folder or mount can be listed; no store is created.
        let overview =
            try config.storeExists()
            ? try await FeedOverview.load(config: config)
            : FeedOverview.neverRun(config: config)
        if json {
            Console.print(
                JSONText.encode(
                    overview.map {
                        Report(
                            feed: $0.name, adapter: $0.adapter, enabled: $0.enabled, lastRun: $0.lastRun,
                            status: $0.status,
                            rows: Dictionary($0.rows.map { ($0.entity, $0.rows) }, uniquingKeysWith: +),
                            cursor: $0.cursor, schedule: $0.schedule?.description, nextRun: $0.nextRun,
                            worker: $0.worker, media: $0.media)
                    }))
            return
        }
        // The cursor column appears once a feed has one.
        let cursors = overview.contains { $0.cursor != nil }
        // So do the schedule columns, once a feed has a schedule.
        let schedules = overview.contains { $0.schedule != nil }
        // And the media column, once a feed's rows name images to mirror.
        let media = overview.contains { $0.mediaText != nil }
        var table = TextTable(
            ["feed", "adapter", "enabled", "last run", "status", "rows"] + (cursors ? ["cursor"] : [])
                + (schedules ? ["schedule", "next run", "worker"] : []) + (media ? ["media"] : []))
        for feed in overview {
            table.add(
                [
                    feed.name, feed.adapter, feed.enabled ? "yes" : "no", feed.lastRun ?? "never", feed.status ?? "-",
                    feed.rows.map { "\($0.entity) \($0.rows)" }.joined(separator: ", "),
                ] + (cursors ? [feed.cursor ?? "-"] : [])
                    + (schedules
                        ? [feed.schedule?.description ?? "-", feed.nextRun ?? "-", feed.worker ?? "-"] : [])
                    + (media ? [feed.mediaText ?? "-"] : []))
        }
        Console.print(table.rendered)
    }
}
