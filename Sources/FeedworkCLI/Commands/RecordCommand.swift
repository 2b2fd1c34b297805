import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// `feedwork record`: performs a feed's live requests once and saves them as a fixture suite.
struct RecordCommand: AsyncParsableCommand, LogLevelChoosing {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a feed once against the live API and save its responses and records as fixtures.",
        discussion: """
            Writes feed.yaml (the feed's block, secrets kept as ${VAR}), responses.json and \
            responses/ (secrets replaced by ***) and expected/ (the records the run produced). \
            `feedwork test --feed FEED` then replays them offline. The suite goes to the feed's \
            fixtures: folder, or fixtures/FEED beside the config, unless --output names one. Every \
            written file is checked for secrets; one found removes the suite and fails.

            Examples:
              feedwork record my-api         writes fixtures/my-api; then add
                                             `fixtures: fixtures/my-api` to the feed
              feedwork record fx --output Adapters/Currency/Fixtures/fx
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The feed to record.", completion: Completions.feeds)
    var feed: String

    @Option(help: "The suite folder to write.", completion: .directory)
    var output: String?

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let config = try await options.loadToRun()
        guard let feedConfig = config.feed(named: feed) else {
            throw CommandFailure.usage(
                "no feed named '\(feed)' in \(config.file); feeds: \(config.feeds.map(\.name).joined(separator: ", "))")
        }
        let directory =
            output.map { URL(fileURLWithPath: $0) }
            ?? URL(
                fileURLWithPath: feedConfig.fixtures ?? ConfigLoader.resolve("fixtures/\(feed)", in: config.directory))
        let text: String
        do {
            text = try String(contentsOfFile: options.config, encoding: .utf8)
        } catch {
            throw CommandFailure.usage(
                "cannot read \(options.config): \(error.localizedDescription)")
        }
        do {
            let count = try await FixtureRecorder().record(feed: feed, config: config, configText: text, to: directory)
            Console.print("Recorded \(count) response(s) of feed \(feed) into \(directory.path)")
            if feedConfig.fixtures == nil && output == nil {
                Console.print("Add `fixtures: fixtures/\(feed)` to the feed, then run `feedwork test --feed \(feed)`.")
            }
        } catch {
            throw CommandFailure.failed("\(error)")
        }
    }
}
