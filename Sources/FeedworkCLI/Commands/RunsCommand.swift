import ArgumentParser
import FeedEngine
import FeedKit
import Foundation

/// `feedwork runs`: the run history kept in `_runs`, newest first.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "Show the run history: each feed's passes with their status, counts and error.",
        discussion: """
            Reads the store only (it is never created or changed) and needs none of the config's \
            secrets. Runs are listed newest first: run id, feed, status (ok, ok_with_rejects, stale, \
            failed, running or interrupted), start, duration, the rows the pass inserted, updated, \
            left unchanged, deleted and rejected, and its error. Exit status: 0, or 1 when there is \
            no store yet, 2 for a config or usage error.

            Examples:
              feedwork runs
              feedwork runs --feed shop --limit 5
              feedwork runs --json
            """)

    @OptionGroup var options: HistoryOptions

    func run() async throws {
        let store = try options.store()
        options.print(try await store.runs(feed: options.feed, limit: options.limit), table: HistoryPrinter.runs)
    }
}
