import ArgumentParser
import Foundation

/// The `feedwork` command: many JSON web APIs into one SQLite store. ``Feedwork/main(adapters:)``
/// runs it with the adapters a program registers.
struct FeedworkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedwork",
        abstract: "Turn JSON web APIs into one clean, queryable SQLite store.",
        discussion: """
            Feeds are declared in feeds.yaml; each names an adapter that fetches, parses and maps \
            one kind of API into entity tables.

            Examples:
              feedwork run                        run every enabled feed of ./feeds.yaml
              feedwork run --feed bbc-fruit       run one feed
              feedwork worker                     run scheduled feeds when due, until stopped
              feedwork validate -c my.yaml        check a config, print every problem
              feedwork list                       feeds, last runs and row counts
              feedwork runs --feed bbc-fruit      a feed's run history, newest first
              feedwork rejects --run 12           the records run 12 rejected, and where from
              feedwork export fruit --format csv  the fruit entity as CSV
              feedwork adapters                   adapters, their options and entities
              feedwork schema                     the tables the feeds write
              feedwork price milk eggs=2 --currency EUR
              feedwork record my-api              save a feed's responses as fixtures
              feedwork test                       replay the fixture suites offline
              feedwork mcp                        the store to an assistant (Model Context Protocol)
              feedwork new adapter acme           a package with an adapter of one's own
            """,
        version: "0.1.0",
        subcommands: [
            RunCommand.self, WorkerCommand.self, ValidateCommand.self, ListCommand.self, RunsCommand.self,
            RejectsCommand.self,
            ExportCommand.self, PriceCommand.self, AdaptersCommand.self, SchemaCommand.self, InitCommand.self,
            TestCommand.self, RecordCommand.self, ServeCommand.self, MCPCommand.self, DropCommand.self,
            GCCommand.self, NewCommand.self,
        ]
    )

    /// Parses the command line, runs the command, and maps its errors to messages and exit
    /// statuses through ``ExitStatus``.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exitForArgumentParser(error)
        }
        LoggingOptions.bootstrap(level: LoggingOptions.level(chosenBy: command))
        // Benchmarks/startup.sh times the start-up of a command, up to here, with
        // FEEDWORK_STARTUP_ONLY set: the command line is parsed and checked, and the command is
        // about to begin its own work.
        if getenv(startupOnlyVariable) != nil { exit() }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // `--help` and friends run argument-parser's own commands, whose errors are its own.
            let ours = ourCommands.contains { $0 == type(of: command) }
            guard ours, let (status, lines) = ExitStatus.of(error) else { exitForArgumentParser(error) }
            fail(status, lines)
        }
        // Returning would exit as well, but only once libdispatch has made a thread to run the
        // main queue, where an async main ends.
        exit()
    }

    /// Every command of `feedwork`, nested ones (`new adapter`) included.
    static var ourCommands: [any ParsableCommand.Type] {
        func withSubcommands(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
            [command] + command.configuration.subcommands.flatMap(withSubcommands)
        }
        return withSubcommands(FeedworkCommand.self)
    }

    /// The environment variable that ends every command where its own work would begin, with
    /// status 0: what Benchmarks/startup.sh times as the command's start-up.
    static let startupOnlyVariable = "FEEDWORK_STARTUP_ONLY"

    /// Ends with argument-parser's own message for `error` (help, version, a parse error with
    /// the usage line), but with Feedwork's usage status 2 where argument-parser would exit 64,
    /// so every usage error exits alike.
    private static func exitForArgumentParser(_ error: any Error) -> Never {
        guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
        Console.error(fullMessage(for: error))
        exit(withError: ExitCode(ExitStatus.usage))
    }

    private static func fail(_ status: Int32, _ lines: [String]) -> Never {
        for line in lines { Console.error(line) }
        exit(withError: ExitCode(status))
    }
}
