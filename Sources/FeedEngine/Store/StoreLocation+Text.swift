import FeedStore
import FeedStoreDrivers

extension StoreLocation {
    /// The store `store` names as `--store` takes it: a server's URL (`postgres://...`), whose
    /// tables are in `schema` (the server's default, `feedwork`, when `nil`), else a file's path.
    /// ``StoreFactory`` decides which.
    public init(_ store: String, schema: String? = nil) {
        self = StoreFactory.location(store, schema: schema)
    }
}
