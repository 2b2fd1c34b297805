import FeedEngine
import FeedKit
import Foundation
import Synchronization

/// A feeds.yaml in a temporary folder with its own store, run through the real engine.
///
/// Tests write the config (and any fixture files) into the folder, run the feeds with the
/// real `StandardFetcher` (files or a ``LoopbackServer``) and query the store: the SQLite
/// file, or with `store: .postgres` a PostgreSQL schema of the harness's own (``HarnessStore``).
/// Every read opens the store as `feedwork export` does, through the engine, so a test reads
/// both stores alike.
///
/// ```swift
/// let harness = try FeedHarness(registry: AdapterRegistry([FruitAdapter.self]), yaml: """
///     feeds:
///       - { name: fruit, adapter: fruit, url: data.json }
///     """, files: ["data.json": body])
/// let report = try await harness.run()
/// #expect(try await harness.count("fruit") == 9)
/// ```
public final class FeedHarness: Sendable {
    /// The temporary folder holding feeds.yaml, the fixtures and `feeds.sqlite`.
    public let directory: URL
    public let registry: AdapterRegistry
    public let environment: [String: String]
    /// Where the feeds are stored.
    public let storeKind: HarnessStore
    /// The `store:` and `schema:` lines put before every config on PostgreSQL; empty on SQLite.
    private let storeLines: String
    /// The last config that loaded, to drop the PostgreSQL schema with at the end.
    private let loadedConfig = Mutex<FeedsConfig?>(nil)

    /// Writes `yaml` as feeds.yaml and each of `files` (path relative to the folder) into a new
    /// temporary folder; on PostgreSQL, `yaml` must not name a store of its own.
    ///
    /// - Throws: ``HarnessError`` for `.postgres` without a server to use.
    public init(
        registry: AdapterRegistry, yaml: String, files: [String: Data] = [:], environment: [String: String] = [:],
        store: HarnessStore = .sqlite
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedwork-\(UUID().uuidString)")
        self.registry = registry
        self.environment = environment
        storeKind = store
        switch store {
        case .sqlite:
            storeLines = ""
        case .postgres:
            guard let url = HarnessStore.postgresURL else { throw HarnessError.noPostgres }
            let schema = HarnessStore.schemaName("harness")
            storeLines = "store: \"\(url)\"\nschema: \(schema)\n"
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try setConfig(yaml)
        for (path, data) in files { try write(path, data) }
    }

    deinit {
        // A leftover schema is harmless, so its errors are left unseen; a `deinit` cannot await.
        if storeKind == .postgres { try? loadedConfig.withLock({ $0 })?.dropStoreSchema() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes (or replaces) a file in the folder, creating folders as needed.
    public func write(_ path: String, _ data: Data) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// Replaces feeds.yaml, keeping the harness's store (a config read back from the folder
    /// keeps its store lines once).
    public func setConfig(_ yaml: String) throws {
        let body = yaml.hasPrefix(storeLines) ? String(yaml.dropFirst(storeLines.count)) : yaml
        try write("feeds.yaml", Data((storeLines + body).utf8))
    }

    public var configPath: String { directory.appendingPathComponent("feeds.yaml").path }

    /// Loads feeds.yaml; throws `ConfigError` for a bad one.
    public func config() throws -> FeedsConfig {
        let config = try ConfigLoader(registry: registry, environment: environment).load(path: configPath)
        loadedConfig.withLock { $0 = config }
        return config
    }

    /// The config's store, opened anew for reading (after a run: there is no store before
    /// one), on either store: its rows, runs, rejects, state and schemas as the engine reads
    /// them. Feedwork's own tests read through it; an adapter's use ``storedRows()``.
    ///
    /// - Throws: `StoreError` when there is no store yet or the server cannot be reached.
    package func store() throws -> any StoreReading { try config().readingStore() }

    /// The store's rows as an adapter's pass reads them (`FeedPass.rows`: an entity's rows
    /// with `export --where` filters, in an order, up to a limit), opened anew for reading.
    ///
    /// - Throws: `StoreError` when there is no store yet (no run) or the server cannot be
    ///   reached.
    public func storedRows() throws -> any StoredRows { try store() }

    /// A fixed pass start, 2026-01-10T00:00:00Z, for tests that pass one to ``run(feeds:offline:fetcher:startDate:)``.
    public static let fixedStart = Date(timeIntervalSince1970: 1_768_003_200)

    /// Runs the enabled feeds (or the named ones) once.
    ///
    /// - Parameters:
    ///   - feeds: the names of the feeds to run; empty for every enabled feed.
    ///   - offline: whether the run is `--offline`: every response from the store's cache.
    ///   - fetcher: what performs the requests; the engine's own by default, over the network
    ///     (a ``LoopbackServer``) and the folder's files.
    ///   - startDate: the moment every pass starts at, for tests whose expectations
    ///     depend on the day (`{{today}}`, a flight offer's date): without it, a test running
    ///     across midnight computes another day than the pass.
    public func run(
        feeds: [String] = [], offline: Bool = false, fetcher: any Fetching = StandardFetcher(), startDate: Date? = nil
    ) async throws -> RunReport {
        let engine = try await Engine.open(try config(), fetcher: fetcher, offline: offline, startDate: startDate)
        return await engine.run(feeds: feeds)
    }

    /// Rows of `sql` as dictionaries of column name to value, typed alike on both stores
    /// (`StoreReading.query(_:arguments:)`); parameters are written `$1`, `$2`...
    public func rows(_ sql: String, _ arguments: [FieldValue] = []) async throws -> [[String: FieldValue]] {
        try await store().query(sql, arguments: arguments)
    }

    /// Runs `sql`, which may change the store: for tests that damage or age what a pass left.
    /// On SQLite it waits up to a minute for the file's lock rather than failing at once: the
    /// last pass's store may still be closing (its checkpoint) when the test goes on.
    public func execute(_ sql: String) async throws {
        try await config().execute(onStore: sql)
    }

    /// The entities of the store, by name, with their schemas.
    public func schemas() async throws -> [String: EntitySchema] { try await config().storedSchemas() }

    /// The names of the store's tables and views that match `pattern` (SQL `LIKE`), sorted.
    public func tableNames(like pattern: String = "%") async throws -> [String] {
        let sql =
            switch storeKind {
            case .sqlite: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name LIKE $1"
            case .postgres:
                "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE $1"
            }
        return try await rows(sql, [.text(pattern)]).compactMap { row in
            if case .text(let name)? = row["name"] { name } else { nil }
        }.sorted()
    }

    /// The number of rows in `table`.
    public func count(_ table: String) async throws -> Int {
        let rows = try await rows("SELECT count(*) AS n FROM \"\(table)\"")
        if case .integer(let n)? = rows.first?["n"] { return Int(n) }
        return 0
    }
}
