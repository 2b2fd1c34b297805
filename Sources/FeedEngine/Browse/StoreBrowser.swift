import FeedKit
import FeedStore
import FeedStoreDrivers
import Foundation

/// Read-only access to a store for `feedwork serve`: its feeds and runs, pages of its
/// entities, facet counts, single records and downloads, from the SQLite file (opened
/// read-only) or the PostgreSQL schema (through the reading path, which creates nothing).
///
/// Every read is one short statement or snapshot: nothing is held open between calls, so a
/// slow reader of the results never holds the store.
public struct StoreBrowser: Sendable {
    /// Downloads: the export code, so a download is byte for byte `feedwork export`.
    public let exporter: Exporter
    /// The store's reads: the run history and the rejects, rows with `export --where` filters
    /// (for pricing from stored rates), the overview's facts.
    package let store: any StoreReading
    /// The store, for titles and errors: a path, or a server without its password.
    public let storeDescription: String

    /// The store of `config`.
    ///
    /// - Throws: ``StoreError`` when the SQLite file does not exist or the server cannot be
    ///   reached or holds no store.
    public init(config: FeedsConfig) throws {
        try self.init(location: config.storeLocation, redactor: config.redactor)
    }

    /// The store at `location`: an SQLite file (opened read-only), or a PostgreSQL schema (for
    /// reading); a server's errors are redacted with `redactor`.
    ///
    /// - Throws: ``StoreError`` when there is no store at `location` or the server cannot be
    ///   reached, naming the server without its password.
    public init(location: StoreLocation, redactor: Redactor = Redactor()) throws {
        if let path = location.filePath, !FileManager.default.fileExists(atPath: path) {
            throw StoreError(path: path, message: "no store here; run `feedwork run` first")
        }
        let store = try StoreFactory.reading(location, redactor: redactor)
        exporter = Exporter(store: store)
        self.store = store
        storeDescription = location.description
    }

    /// The runs the overview charts per feed.
    public static let recentRuns = 20

    /// Every feed that ran on the store, and every feed of `configured` (name and adapter)
    /// that has not, by name: a feed that never ran has no runs and no rows.
    public func overview(configured: [(feed: String, adapter: String)] = []) async throws -> [FeedOverview] {
        let ran = try await store.feedsThatRan()
        let adapters = Dictionary(configured.map { ($0.feed, $0.adapter) }, uniquingKeysWith: { first, _ in first })
        let feeds = (ran + configured.map(\.feed).filter { !ran.contains($0) }).map {
            FeedOverview.Configured(name: $0, adapter: adapters[$0] ?? "")
        }
        return try await FeedOverview.load(feeds, from: store, recentRuns: Self.recentRuns).sorted { $0.name < $1.name }
    }

    /// Whether `feed` has run on the store.
    public func hasFeed(_ feed: String) async throws -> Bool {
        !(try await query("SELECT 1 AS found FROM _runs WHERE feed = $1 LIMIT 1", [.text(feed)])).isEmpty
    }

    /// The store's tables: each entity, then its child tables, by name.
    public func tables() async throws -> [ExportTable] { ExportTable.all(in: try await exporter.storedSchemas()) }

    /// The schema of `entity` as its feeds declared it (`nil` for an unknown entity or a
    /// child table).
    public func schema(of entity: String) async throws -> EntitySchema? { try await exporter.storedSchemas()[entity] }

    /// Runs one read-only statement (`$1`, `$2`... parameters) on the store.
    func query(_ statement: String, _ arguments: [FieldValue] = []) async throws -> [[String: FieldValue]] {
        try await store.query(statement, arguments: arguments)
    }
}
