import ArgumentParser
import FeedCore
import Foundation

/// The `--config` option shared by every command that reads feeds.yaml.
struct ConfigOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The config file.")
    var config: String = "feeds.yaml"

    /// Loads the config; on problems prints each one and exits with status 2.
    func load() throws -> FeedsConfig {
        do {
            return try ConfigLoader(registry: BuiltinAdapters.registry).load(path: config)
        } catch let error as ConfigError {
            for problem in error.problems { Console.error(problem.description) }
            throw ExitCode(2)
        }
    }

    /// Opens the config's store for reading only (it must exist), exiting with status 1 and a
    /// message when it cannot.
    func openStoreForReading(_ config: FeedsConfig) throws -> EntityStore {
        do {
            return try EntityStore(readingAt: config.storePath)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// Opens the config's store, exiting with status 1 and a message when it cannot.
    func openStore(_ config: FeedsConfig) throws -> EntityStore {
        do {
            return try EntityStore(path: config.storePath)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
    }
}
