import FeedEngine
import FeedKit
import Foundation

/// A set of feeds and the fixture folder they replay: `responses.json`, `responses/` and
/// `expected/` (see ``FixtureRecording`` and ``ExpectedRecords``).
///
/// Two kinds exist:
/// - a built-in adapter's suite, `Adapters/<Name>/Fixtures/<suite>/`, whose `feed.yaml` declares
///   its feeds (URLs as the live API has them, secrets as `${VAR}`);
/// - a feed of the user's feeds.yaml with `fixtures: some/folder`, replayed with that config.
public struct FixtureSuite: Sendable {
    /// The config file of a built-in suite, inside its folder.
    public static let configFile = "feed.yaml"

    /// A short name for reports: `Fruit/bbc-fruit`, or the feed's name.
    public var name: String
    /// The fixture folder.
    public var directory: URL
    public var config: FeedsConfig
    /// The feeds of `config` that the suite runs.
    public var feeds: [String]

    public init(name: String, directory: URL, config: FeedsConfig, feeds: [String]) {
        self.name = name
        self.directory = directory
        self.config = config
        self.feeds = feeds
    }

    /// The feeds' configurations.
    public var feedConfigs: [FeedConfig] { config.feeds.filter { feeds.contains($0.name) } }

    /// The adapters the suite's feeds use.
    public var adapterNames: Set<String> { Set(feedConfigs.map(\.adapterName)) }

    /// Loads the suite folder `directory` with its `feed.yaml`; every feed in it belongs to the suite.
    ///
    /// Variables the config refers to and `environment` lacks are set to the placeholder `***`
    /// (``ConfigLoader/UnsetVariables/placeholder``), so a suite replays without its secrets.
    ///
    /// - Throws: ``ConfigError`` for a bad `feed.yaml`.
    public static func load(
        directory: URL, name: String? = nil, registry: AdapterRegistry,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FixtureSuite {
        let file = directory.appendingPathComponent(configFile)
        let loader = ConfigLoader(registry: registry, environment: environment, unsetVariables: .placeholder)
        let config = try loader.load(path: file.path)
        return FixtureSuite(
            name: name ?? directory.lastPathComponent, directory: directory, config: config,
            feeds: config.feeds.map(\.name))
    }

    /// The suite of `feed` in `config`, from its `fixtures:` folder; `nil` when it has none.
    public static func forFeed(_ feed: FeedConfig, in config: FeedsConfig) -> FixtureSuite? {
        guard let fixtures = feed.fixtures else { return nil }
        return FixtureSuite(
            name: feed.name, directory: URL(fileURLWithPath: fixtures), config: config, feeds: [feed.name])
    }

    /// The folders `<root>/Adapters/*/Fixtures/*` that hold a `feed.yaml`, sorted, each with a
    /// name `<Adapter folder>/<suite folder>`.
    public static func discover(root: URL) -> [(name: String, directory: URL)] {
        let manager = FileManager.default
        let adapters = root.appendingPathComponent("Adapters")
        var found: [(name: String, directory: URL)] = []
        for adapter in ((try? manager.contentsOfDirectory(atPath: adapters.path)) ?? []).sorted() {
            let fixtures = adapters.appendingPathComponent(adapter).appendingPathComponent("Fixtures")
            for suite in ((try? manager.contentsOfDirectory(atPath: fixtures.path)) ?? []).sorted() {
                let directory = fixtures.appendingPathComponent(suite)
                if manager.fileExists(atPath: directory.appendingPathComponent(configFile).path) {
                    found.append(("\(adapter)/\(suite)", directory))
                }
            }
        }
        return found
    }
}
