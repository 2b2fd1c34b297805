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

    /// Checks that a store the command only reads is there: a missing SQLite file is an error
    /// (status 1), not a new store. A server's store is checked when it is opened.
    static func requireStore(at location: StoreLocation) throws {
        if let path = location.filePath, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure.failed("no store at \(path); run `feedwork run` first")
        }
    }
}
