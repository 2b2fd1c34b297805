/// Where a store is, as `store:` in feeds.yaml or `--store` names it: an SQLite file or a
/// schema on a PostgreSQL server. ``StoreFactory`` opens the driver for it.
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite file, by path.
    case file(String)
    /// A schema on a PostgreSQL server.
    case postgres(PostgresStoreLocation)

    /// `text` as `--store` takes it: a `postgres://` or `postgresql://` URL, whose tables are in
    /// `schema`, else a file path.
    public init(_ text: String, schema: String = "feedwork") {
        self =
            PostgresURL.isPostgres(text) ? .postgres(PostgresStoreLocation(url: text, schema: schema)) : .file(text)
    }

    /// The store as messages name it: the file, or the server (without its password) and schema.
    public var description: String {
        switch self {
        case .file(let path): path
        case .postgres(let server): "\(PostgresURL.withoutPassword(server.url)) (schema \(server.schema))"
        }
    }

    /// The file that holds the store, which a reader needs to be there already; `nil` for a
    /// server.
    public var filePath: String? {
        guard case .file(let path) = self else { return nil }
        return path
    }
}

/// A PostgreSQL store: the server's URL (its password from `${VAR}`, `PGPASSWORD` or
/// `~/.pgpass`, redacted like every secret) and the schema of Feedwork's tables.
public struct PostgresStoreLocation: Sendable, Hashable {
    public var url: String
    public var schema: String

    package init(url: String, schema: String) {
        self.url = url
        self.schema = schema
    }
}
