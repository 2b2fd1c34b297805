import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import GRDB

/// A feeds.yaml in a temporary folder with its own store, run through the real engine.
///
/// Tests write the config (and any fixture files) into the folder, run the feeds with the
/// real ``StandardFetcher`` (files or a ``LoopbackServer``) and query the SQLite file.
///
/// ```swift
/// let harness = try FeedHarness(registry: AdapterRegistry([FruitAdapter.self]), yaml: """
///     feeds:
///       - { name: fruit, adapter: fruit, url: data.json }
///     """, files: ["data.json": body])
/// let report = try await harness.run()
/// #expect(try harness.count("fruit") == 9)
/// ```
public final class FeedHarness: Sendable {
    /// The temporary folder holding feeds.yaml, the fixtures and `feeds.sqlite`.
    public let directory: URL
    public let registry: AdapterRegistry
    public let environment: [String: String]

    /// Writes `yaml` as feeds.yaml and each of `files` (path relative to the folder) into a new
    /// temporary folder.
    public init(
        registry: AdapterRegistry, yaml: String, files: [String: Data] = [:], environment: [String: String] = [:]
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedwork-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.registry = registry
        self.environment = environment
        try write("feeds.yaml", Data(yaml.utf8))
        for (path, data) in files { try write(path, data) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes (or replaces) a file in the folder, creating folders as needed.
    public func write(_ path: String, _ data: Data) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// Replaces feeds.yaml.
    public func setConfig(_ yaml: String) throws { try write("feeds.yaml", Data(yaml.utf8)) }

    public var configPath: String { directory.appendingPathComponent("feeds.yaml").path }

    /// Loads feeds.yaml; throws ``ConfigError`` for a bad one.
    public func config() throws -> FeedsConfig {
        try ConfigLoader(registry: registry, environment: environment).load(path: configPath)
    }

    /// The store of the config (opened anew each call).
    public func store() throws -> EntityStore { try EntityStore(path: try config().storePath) }

    /// Runs the enabled feeds (or the named ones) once.
    public func run(feeds: [String] = [], offline: Bool = false, fetcher: any Fetching = StandardFetcher()) async throws
        -> RunReport
    {
        let engine = try await Engine.open(try config(), fetcher: fetcher, offline: offline)
        return await engine.run(feeds: feeds)
    }

    /// Rows of `sql` as dictionaries of column name to value.
    public func rows(_ sql: String, _ arguments: [FieldValue] = []) throws -> [[String: FieldValue]] {
        try store().query(sql, arguments: arguments)
    }

    /// Runs `sql`, which may change the store: for tests that damage or age what a pass left.
    public func execute(_ sql: String) throws {
        try DatabaseQueue(path: try config().storePath).write { try $0.execute(sql: sql) }
    }

    /// The number of rows in `table`.
    public func count(_ table: String) throws -> Int {
        let rows = try rows("SELECT count(*) AS n FROM \"\(table)\"")
        if case .integer(let n)? = rows.first?["n"] { return Int(n) }
        return 0
    }
}
