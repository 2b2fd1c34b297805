import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit

/// `feedwork validate`: checks a config without running anything.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check feeds.yaml and print every problem with its line and column.",
        discussion: """
            Exit status 0 when the config is valid, 2 otherwise. Nothing is fetched or written. \
            With --json the result is one object on stdout, problems included, for editors and \
            CI: {"config", "valid", "feeds", "enabled", "store", "problems": [{"file", "line", \
            "column", "message"}]}.

            When the store exists, the changes the next pass would make to it (new columns, \
            type conversions: feedwork schema --plan) follow the verdict; a store that cannot \
            be read is left out.

            Examples:
              feedwork validate --config feeds.yaml
              feedwork validate --json
            """)

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print the result as JSON on stdout, problems included.")
    var json = false

    /// What `--json` prints.
    struct Report: Encodable {
        struct Problem: Encodable {
            var file: String
            var line: Int
            var column: Int
            var message: String
        }

        var config: String
        var valid: Bool
        @NullWhenAbsent var feeds: Int?
        @NullWhenAbsent var enabled: Int?
        @NullWhenAbsent var store: String?
        var problems: [Problem]
    }

    func run() async throws {
        guard json else {
            let config = try await options.loadToRun()
            let enabled = config.feeds.filter(\.enabled).count
            Console.print(
                "\(config.file): ok: \(config.feeds.count) feed(s), \(enabled) enabled; store \(config.storeDescription)"
            )
            let changes = await Self.storeChanges(config)
            if !changes.isEmpty {
                Console.print(
                    "the next pass changes the store (see feedwork schema --plan):\n"
                        + changes.map { "  \($0)" }.joined(separator: "\n"))
            }
            return
        }
        do {
            let config = try await options.loadToRun()
            Console.print(
                JSONText.encode(
                    Report(
                        config: config.file, valid: true, feeds: config.feeds.count,
                        enabled: config.feeds.filter(\.enabled).count, store: config.storeDescription, problems: [])))
        } catch let error as ConfigError {
            let problems = error.problems.map {
                Report.Problem(
                    file: $0.location.file, line: $0.location.line, column: $0.location.column, message: $0.message)
            }
            Console.print(JSONText.encode(Report(config: options.config, valid: false, problems: problems)))
            throw CommandFailure(status: ExitStatus.usage, lines: [])
        }
    }

    /// The changes the next pass would make to `config`'s store (``SchemaPlan``); none when
    /// there is no store yet or it cannot be read.
    static func storeChanges(_ config: FeedsConfig) async -> [SchemaChange] {
        guard (try? config.storeExists()) == true, let stored = try? await config.storedEntities() else { return [] }
        return SchemaPlan.changes(
            declared: config.declaredEntities.map(\.schema), stored: stored.schemas, retired: stored.retired)
    }
}
