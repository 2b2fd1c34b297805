/// The adapter a pass runs, as `_runs` records it: its name in feeds.yaml and the Swift module
/// it came from (`FruitFeed`, or a package's own), so that a `feedwork` built without that
/// adapter can say which one a feed last ran with.
public struct AdapterOrigin: Sendable, Hashable {
    /// The adapter's name (`adapter:` in feeds.yaml).
    public var name: String
    /// The module that defines the adapter's type.
    public var module: String

    public init(name: String, module: String) {
        self.name = name
        self.module = module
    }
}

extension StoreReading {
    /// The module of `adapter` in the last run of `feed` that recorded one, or `nil` (never ran
    /// with it, or before the store recorded modules).
    package func lastModule(of adapter: String, feed: String) async throws -> String? {
        let rows = try await query(
            """
            SELECT adapter_module FROM _runs
            WHERE feed = $1 AND adapter = $2 AND adapter_module IS NOT NULL ORDER BY id DESC LIMIT 1
            """, arguments: [.text(feed), .text(adapter)])
        guard case .text(let module)? = rows.first?["adapter_module"] else { return nil }
        return module
    }
}
