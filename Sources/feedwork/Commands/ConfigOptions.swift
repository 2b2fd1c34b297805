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

    /// Opens the config's store, exiting with status 1 and a message when it cannot.
    func openStore(_ config: FeedsConfig) throws -> EntityStore {
        do {
            return try EntityStore(path: config.storePath)
        } catch {
            throw CommandFailure.failed("\(error)")
        }
    }
}
