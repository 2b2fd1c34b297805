import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// `feedwork list`: the feeds of a config with their last run and row counts.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the feeds with their last run's status and time and their row counts per entity.")

    @OptionGroup var options: ConfigOptions

    func run() throws {
        let config = try options.load(unsetVariables: .placeholder)
        // Read-only, so a read-only store, folder or mount can be listed; no store is created.
        let overview =
            FileManager.default.fileExists(atPath: config.storePath)
            ? try FeedOverview.load(config: config, store: EntityStore(readingAt: config.storePath))
            : FeedOverview.neverRun(config: config)
        var table = TextTable(["feed", "adapter", "enabled", "last run", "status", "rows"])
        for feed in overview {
            table.add([
                feed.name, feed.adapter, feed.enabled ? "yes" : "no", feed.lastRun ?? "never", feed.status ?? "-",
                feed.rows.map { "\($0.entity) \($0.count)" }.joined(separator: ", "),
            ])
        }
        Console.print(table.rendered)
    }
}
