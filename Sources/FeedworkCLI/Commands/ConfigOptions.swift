import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// The `--config` option shared by every command that reads feeds.yaml.
struct ConfigOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The config file.", completion: Completions.config)
    var config: String = "feeds.yaml"

    /// Loads the config; on problems prints each one and exits with status 2.
    ///
    /// Commands that only read the store (`list`, `export`, `price`, `schema`) pass `.placeholder`: they
    /// need no secret, so an unset `${VAR}` is not an error for them.
    func load(unsetVariables: ConfigLoader.UnsetVariables = .error) throws -> FeedsConfig {
        try ConfigLoader(registry: RegisteredAdapters.registry, unsetVariables: unsetVariables).load(path: config)
    }

    /// Loads the config to run or check its feeds; a feed naming an adapter this binary does
    /// not register is an error that says which module the feed last ran it from (the store
    /// records it), so a binary built without a package names what it lacks.
    func loadToRun() async throws -> FeedsConfig {
        let loader = ConfigLoader(registry: RegisteredAdapters.registry)
        do {
            return try loader.load(path: config)
        } catch let error as ConfigError {
            throw await loader.namingLastModules(in: error, path: config)
        }
    }

    /// Loads the config of a command that only reads the store (`list`, `export`, `schema`,
    /// `serve`...): an unset `${VAR}` is a placeholder, and a feed naming an adapter this binary
    /// does not register is left out with a warning, since its rows are in the store whichever
    /// binary wrote them.
    func loadToRead() throws -> FeedsConfig {
        let loaded = try ConfigLoader(
            registry: RegisteredAdapters.registry, unsetVariables: .placeholder, unknownAdapters: .skipFeed
        ).load(path: config)
        for use in loaded.unknownAdapters {
            Console.error(
                "\(use.location): warning: feed '\(use.feed)' names adapter '\(use.adapter)', which this feedwork"
                    + " does not register: its rows are read from the store as they are")
        }
        return loaded
    }

    /// Checks that a store the command only reads is there: a missing SQLite file is an error
    /// (status 1), not a new store. A server's store is checked when it is opened.
    static func requireStore(at location: StoreLocation) throws {
        if let path = location.filePath, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure.failed("no store at \(path); run `feedwork run` first")
        }
    }
}
