/// Where a store is, as `store:` and `schema:` in feeds.yaml (or `--store` and `--schema`) name
/// it: a file's path or a server's URL, and on a server the schema of Feedwork's tables.
///
/// What the text means is the drivers' knowledge: `StoreFactory` makes every location (which
/// driver it names, the driver's default schema, how messages name it, whether a file holds it),
/// checks it and opens it. Nothing here knows a driver.
public struct StoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// What names the store: a file's path (absolute in a loaded config) or a server's URL,
    /// password included, so never shown (``description`` is).
    public let store: String
    /// The schema of Feedwork's tables: as given, else the driver's default on a server that has
    /// schemas; `nil` when none was given to a store without them.
    public let schema: String?
    /// The store as messages name it: the file, or the server (without its password) and schema.
    public let description: String
    /// The file that holds the store, which a reader needs to be there already; `nil` for a
    /// server.
    public let filePath: String?

    /// A location as its driver describes it; `StoreFactory` makes them.
    package init(store: String, schema: String?, description: String, filePath: String?) {
        self.store = store
        self.schema = schema
        self.description = description
        self.filePath = filePath
    }

    /// What is wrong with a location, and which of its two parts it is about, so that a config
    /// reports it at the line of `store:` or `schema:`.
    package struct Problem: Sendable, Hashable {
        package enum Part: Sendable, Hashable {
            case store, schema
        }

        package var part: Part
        package var message: String

        package init(_ message: String, at part: Part) {
            self.message = message
            self.part = part
        }
    }
}
