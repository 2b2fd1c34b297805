import FeedKit
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
    /// The run history and the rejects.
    public let history: any StoreHistory
    /// Rows with `export --where` filters (for pricing from stored rates).
    public let storedRows: any StoredRows
    /// The store, for titles and errors: a path, or a server without its password.
    public let storeDescription: String
    let sql: any StoreSQL

    /// The store of `config`.
    ///
    /// - Throws: ``StoreError`` when the SQLite file does not exist or the server cannot be
    ///   reached or holds no store.
    public init(config: FeedsConfig) throws {
        if let store = try config.postgresStore() {
            self.init(postgres: store, description: config.storeDescription)
        } else {
            try self.init(sqlitePath: config.storePath)
        }
    }

    /// The SQLite store at `path`, opened read-only.
    ///
    /// - Throws: ``StoreError`` when there is no store at `path`.
    public init(sqlitePath path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(path: path, message: "no store here; run `feedwork run` first")
        }
        let store = try SQLiteStore(readingAt: path)
        exporter = Exporter(store: store)
        history = store
        storedRows = store
        sql = store
        storeDescription = path
    }

    /// The PostgreSQL store at `url`, in `schema`, for reading.
    ///
    /// - Throws: ``StoreError`` naming the server without its password.
    public init(postgresURL url: String, schema: String = "feedwork") throws {
        let description = "\(PostgresURL.withoutPassword(url)) (schema \(schema))"
        do {
            self.init(
                postgres: try PostgresStore(url: url, schema: schema, migrating: false), description: description)
        } catch {
            throw StoreError(path: description, message: error.message)
        }
    }

    private init(postgres store: PostgresStore, description: String) {
        exporter = Exporter(postgres: store)
        history = store
        storedRows = store
        sql = store
        storeDescription = description
    }

    /// Whether `text` names a PostgreSQL store (`postgres://` or `postgresql://`).
    public static func isPostgresURL(_ text: String) -> Bool { PostgresURL.isPostgres(text) }

    /// The store's tables: each entity, then its child tables, by name.
    public func tables() throws -> [ExportTable] { ExportTable.all(in: try exporter.storedSchemas()) }

    /// The schema of `entity` as its feeds declared it (`nil` for an unknown entity or a
    /// child table).
    public func schema(of entity: String) throws -> EntitySchema? { try exporter.storedSchemas()[entity] }

    /// Runs one read-only statement (`$1`, `$2`... parameters) on the store.
    func query(_ statement: String, _ arguments: [FieldValue] = []) throws -> [[String: FieldValue]] {
        try sql.query(statement, arguments: arguments)
    }
}
