import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// The `--config` option shared by every command that reads feeds.yaml.
struct ConfigOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The config file.")
    var config: String = "feeds.yaml"

    /// Loads the config; on problems prints each one and exits with status 2.
    func load() throws -> FeedsConfig {
        try ConfigLoader(registry: BuiltinAdapters.registry).load(path: config)
    }

    /// The config's store path, the config loaded with `***` for each `${VAR}` the environment
    /// lacks (see ``FixtureEnvironment``): commands that only read the store need no secret,
    /// since the store holds none.
    func storePathWithoutSecrets() throws -> String {
        let text: String
        do {
            text = try String(contentsOfFile: config, encoding: .utf8)
        } catch {
            return try load().storePath  // reports the unreadable file as any command does
        }
        let environment = FixtureEnvironment.environment(for: text, base: ProcessInfo.processInfo.environment)
        return try ConfigLoader(registry: BuiltinAdapters.registry, environment: environment).load(path: config)
            .storePath
    }

    /// The existing store at `path`, opened read-only; a missing file is an error (status 1),
    /// not a new store.
    static func readOnlyStore(at path: String) throws -> EntityStore {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.failed("no store at \(path); run `feedwork run` first")
        }
        return try EntityStore(readingAt: path)
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
