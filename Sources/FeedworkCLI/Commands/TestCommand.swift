import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// `feedwork test`: replays fixture suites offline and compares what they produce with their
/// expected records.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Replay recorded fixtures through the engine and compare the records with the expected ones.",
        discussion: """
            A suite is a folder with recorded responses (responses.json, responses/) and the expected \
            records (expected/<entity>.ndjson, expected/_rejects.ndjson). Each built-in adapter keeps \
            its suites in Adapters/<Name>/Fixtures/<suite>/ beside a feed.yaml; a feed of feeds.yaml \
            names its own with `fixtures: some/folder`. No request goes to the network: a request \
            without a recording is an error that names it. Variables the suites' configs refer to \
            and the environment lacks are set to *** (the recordings hold *** in their place).

            Exit status: 0 when every suite matches, 1 on any difference or failed feed, 2 for a \
            config or usage error.

            Examples:
              feedwork test                  every built-in suite and feed with fixtures:
              feedwork test fruit currency   the suites of these adapters
              feedwork test --feed my-api    a feed against its fixtures: folder
              feedwork test fruit --update   rewrite the expected records
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: "Adapters (e.g. fruit) or suite folders to test; all when none is given.")
    var targets: [String] = []

    @Option(
        name: .customLong("feed"), help: "Test this feeds.yaml feed against its fixtures: folder (repeatable).",
        completion: Completions.feeds)
    var feeds: [String] = []

    @Flag(help: "Rewrite the expected records from the replay instead of comparing.")
    var update = false

    @Option(help: "The folder whose Adapters/*/Fixtures/* hold the built-in suites.")
    var fixturesRoot: String = "."

    func run() async throws {
        let suites = try selectSuites()
        guard !suites.isEmpty else {
            throw CommandFailure.usage(
                "no fixture suite found (looked in \(fixturesRoot)/Adapters/*/Fixtures/* and \(options.config))")
        }
        var passed = 0
        var failed = 0
        let runner = FixtureRunner()
        for loaded in suites {
            let suite: FixtureSuite
            switch loaded {
            case .failure(let name, let message):
                Console.print("FAIL \(name)\n  \(message.replacingOccurrences(of: "\n", with: "\n  "))")
                failed += 1
                continue
            case .success(let value):
                suite = value
            }
            do {
                let result = try await runner.run(suite, update: update)
                Console.print(Self.describe(result))
                if result.passed { passed += 1 } else { failed += 1 }
            } catch {
                Console.print("FAIL \(suite.name)\n  \(error)")
                failed += 1
            }
        }
        Console.print("\(passed) passed, \(failed) failed")
        if failed > 0 { throw CommandFailure.reported }
    }

    /// A suite ready to run, or the reason it could not be loaded.
    enum LoadedSuite {
        case success(FixtureSuite)
        case failure(String, String)
    }

    private func selectSuites() throws -> [LoadedSuite] {
        var selected: [LoadedSuite] = []
        let all = targets.isEmpty && feeds.isEmpty
        let config = try loadConfig(required: !feeds.isEmpty)
        for name in feeds {
            guard let feed = config?.feed(named: name), let config else {
                throw CommandFailure.usage(
                    "no feed named '\(name)' in \(options.config); feeds: \(config?.feeds.map(\.name).joined(separator: ", ") ?? "")"
                )
            }
            guard let suite = FixtureSuite.forFeed(feed, in: config) else {
                throw CommandFailure.usage(
                    "feed '\(name)' has no fixtures: folder; record one with `feedwork record \(name)` and add "
                        + "`fixtures: fixtures/\(name)` to it")
            }
            selected.append(.success(suite))
        }
        guard all || !targets.isEmpty else { return selected }

        var builtin: [LoadedSuite] = []
        let root = URL(fileURLWithPath: fixturesRoot)
        for (name, directory) in FixtureSuite.discover(root: root) {
            do {
                builtin.append(
                    .success(
                        try FixtureSuite.load(directory: directory, name: name, registry: RegisteredAdapters.registry)))
            } catch let error as ConfigError {
                builtin.append(.failure(name, error.problems.map(\.description).joined(separator: "\n")))
            }
        }
        let configured = (config?.feeds ?? []).compactMap { feed in
            config.flatMap { FixtureSuite.forFeed(feed, in: $0) }
        }
        if all { return selected + builtin + configured.map { .success($0) } }

        for target in targets {
            let folder = URL(fileURLWithPath: target)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(FixtureSuite.configFile).path) {
                do {
                    let registry = RegisteredAdapters.registry
                    selected.append(
                        .success(try FixtureSuite.load(directory: folder, name: target, registry: registry)))
                } catch let error as ConfigError {
                    selected.append(.failure(target, error.problems.map(\.description).joined(separator: "\n")))
                }
                continue
            }
            let wanted = target.lowercased()
            let matches =
                builtin.filter { loaded in
                    switch loaded {
                    case .success(let suite):
                        suite.adapterNames.contains(wanted) || suite.name.lowercased().hasPrefix(wanted + "/")
                    case .failure(let name, _):
                        name.lowercased().hasPrefix(wanted + "/")
                    }
                } + configured.filter { $0.adapterNames.contains(wanted) }.map { LoadedSuite.success($0) }
            guard !matches.isEmpty else {
                throw CommandFailure.usage(
                    "no fixture suite for '\(target)' (adapters: \(RegisteredAdapters.registry.names.joined(separator: ", ")))"
                )
            }
            selected += matches
        }
        return selected
    }

    /// The config with placeholders for unset variables; `nil` when the file does not exist and
    /// is not `required`.
    private func loadConfig(required: Bool) throws -> FeedsConfig? {
        guard FileManager.default.fileExists(atPath: options.config) else {
            if required {
                throw CommandFailure.usage(
                    "no config file \(options.config)")
            }
            return nil
        }
        return try options.load(unsetVariables: .placeholder)
    }

    static func describe(_ result: FixtureResult) -> String {
        if result.passed {
            return result.updated ? "UPDATED \(result.suite): expected records rewritten" : "PASS \(result.suite)"
        }
        var lines = ["FAIL \(result.suite)"]
        lines += result.failures.map { "  \($0)" }
        lines += result.mismatches.map { "  \($0)" }
        if !result.mismatches.isEmpty {
            lines.append("  (\(result.mismatches.count) difference(s); after a deliberate change run with --update)")
        }
        return lines.joined(separator: "\n")
    }
}
