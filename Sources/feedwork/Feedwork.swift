import ArgumentParser

/// The `feedwork` command: many JSON web APIs into one SQLite store.
@main
struct Feedwork: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedwork",
        abstract: "Turn JSON web APIs into one clean, queryable SQLite store.",
        discussion: """
            Feeds are declared in feeds.yaml; each names an adapter that fetches, parses and maps \
            one kind of API into entity tables.

            Examples:
              feedwork run                        run every enabled feed of ./feeds.yaml
              feedwork run --feed bbc-fruit       run one feed
              feedwork validate -c my.yaml        check a config, print every problem
              feedwork list                       feeds, last runs and row counts
              feedwork export fruit --format csv  the fruit entity as CSV
              feedwork adapters                   adapters, their options and entities
              feedwork price milk eggs=2 --currency EUR
              feedwork record my-api              save a feed's responses as fixtures
              feedwork test                       replay the fixture suites offline
            """,
        version: "0.1.0",
        subcommands: [
            RunCommand.self, ValidateCommand.self, ListCommand.self, ExportCommand.self, PriceCommand.self,
            AdaptersCommand.self, TestCommand.self, RecordCommand.self,
        ]
    )
}
