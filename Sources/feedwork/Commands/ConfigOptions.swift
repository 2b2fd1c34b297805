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
        try ConfigLoader(registry: BuiltinAdapters.registry, unsetVariables: unsetVariables).load(path: config)
    }

    /// The existing store at `path`, opened read-only; a missing file is an error (status 1),
    /// not a new store.
    static func readOnlyStore(at path: String) throws -> SQLiteStore {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.failed("no store at \(path); run `feedwork run` first")
        }
        return try SQLiteStore(readingAt: path)
    }
}
