import ArgumentParser
import FeedEngine
import FeedKit
import Foundation

/// `feedwork rejects`: the records passes rejected, kept in `_rejects`, newest first.
struct RejectsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rejects",
        abstract: "Show rejected records: why, where in the response, and which URL and page they came from.",
        discussion: """
            Reads the store only (it is never created or changed) and needs none of the config's \
            secrets; URLs show secrets as ***. Rejects are listed newest first: run, feed, entity, \
            reason, JSON path, URL, page and the raw record (shortened in the table; --json keeps \
            it whole). Exit status: 0, or 1 when there is no store yet, 2 for a config or usage \
            error.

            Examples:
              feedwork rejects
              feedwork rejects --feed shop --run 12
              feedwork rejects --limit 500 --json
            """)

    @OptionGroup var options: HistoryOptions

    @Option(name: .customLong("run"), help: "Only the rejects of this run id.")
    var runID: Int64?

    func run() async throws {
        let store = try options.store()
        options.print(
            try await store.rejects(feed: options.feed, run: runID, limit: options.limit), table: HistoryPrinter.rejects
        )
    }
}
