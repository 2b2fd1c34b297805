import FeedKit

/// The adapters a program knows, by name.
///
/// The engine never names an adapter: the program that embeds it (the `feedwork` CLI) builds a
/// registry of the adapters it links, and a feed's `adapter:` key picks one.
///
/// ```swift
/// let registry = AdapterRegistry([FruitAdapter.self, CurrencyAdapter.self])
/// ```
public struct AdapterRegistry: Sendable {
    private let adapters: [String: any FeedAdapter.Type]
    /// Adapter names in registration order.
    public let names: [String]

    /// A registry of `adapters`; a later adapter with the same name replaces an earlier one.
    public init(_ adapters: [any FeedAdapter.Type]) {
        var byName: [String: any FeedAdapter.Type] = [:]
        var names: [String] = []
        for adapter in adapters {
            let name = adapter.description.name
            if byName[name] == nil { names.append(name) }
            byName[name] = adapter
        }
        self.adapters = byName
        self.names = names
    }

    /// The adapter registered as `name`.
    public func adapter(named name: String) -> (any FeedAdapter.Type)? { adapters[name] }

    /// Every adapter's description, in registration order.
    public var descriptions: [AdapterDescription] { names.compactMap { adapters[$0]?.description } }
}
