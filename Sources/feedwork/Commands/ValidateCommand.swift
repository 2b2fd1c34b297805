import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit

/// `feedwork validate`: checks a config without running anything.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check feeds.yaml and print every problem with its line and column.",
        discussion: """
            Exit status 0 when the config is valid, 2 otherwise. Nothing is fetched or written.

            Example:
              feedwork validate --config feeds.yaml
            """)

    @OptionGroup var options: ConfigOptions

    func run() throws {
        let config = try options.load()
        let enabled = config.feeds.filter(\.enabled).count
        Console.print(
            "\(config.file): ok: \(config.feeds.count) feed(s), \(enabled) enabled; store \(config.storePath)")
    }
}
