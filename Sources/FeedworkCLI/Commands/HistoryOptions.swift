import ArgumentParser
import FeedEngine
import FeedKit
import Foundation

/// What `feedwork runs` and `feedwork rejects` share: the feed filter, the limit, `--json`, and
/// the store they only read.
struct HistoryOptions: ParsableArguments {
    @OptionGroup var config: ConfigOptions

    @Option(help: "Only this feed's entries.", completion: Completions.feeds)
    var feed: String?

    @Option(help: "At most this many entries (the newest).")
    var limit = 20

    @Flag(help: "Print the entries as a JSON list.")
    var json = false

    /// The config's store, read-only and without the config's secrets; a missing store is an
    /// error (status 1), a `--limit` below 1 a usage error.
    func store() throws -> any StoreReading {
        guard limit > 0 else { throw CommandFailure.usage("--limit must be 1 or more") }
        let config = try config.loadToRead()
        try ConfigOptions.requireStore(at: config.storeLocation)
        return try config.readingStore()
    }

    /// Prints `entries` as JSON with `--json`, else as `table` renders them.
    func print<Entry: Encodable>(_ entries: [Entry], table: ([Entry]) -> String) {
        Console.print(json ? JSONText.encode(entries) : table(entries))
    }
}
