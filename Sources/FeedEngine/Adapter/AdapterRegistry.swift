import FeedKit

/// The adapters a program knows, by name.
///
/// The engine never names an adapter: the program that embeds it (the `feedwork` CLI, or a
/// program of its own through `FeedworkCLI`) builds a registry of the adapters it links, and a
/// feed's `adapter:` key picks one.
///
/// ```swift
/// let registry = try AdapterRegistry(unique: [FruitAdapter.self, CurrencyAdapter.self])
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

    /// A registry of `adapters`, refusing two under one name: what a program registers at start,
    /// where a second adapter of a name is a mistake of the program's list, not a replacement.
    public init(unique adapters: [any FeedAdapter.Type]) throws(DuplicateAdapterName) {
        var seen: [String: any FeedAdapter.Type] = [:]
        for adapter in adapters {
            let name = adapter.description.name
            if let first = seen[name] {
                throw DuplicateAdapterName(
                    name: name, first: AdapterProvenance(first).typeName,
                    second: AdapterProvenance(adapter).typeName)
            }
            seen[name] = adapter
        }
        self.init(adapters)
    }

    /// The adapter registered as `name`.
    public func adapter(named name: String) -> (any FeedAdapter.Type)? { adapters[name] }

    /// Every adapter's description, in registration order.
    public var descriptions: [AdapterDescription] { names.compactMap { adapters[$0]?.description } }

    /// Where every adapter comes from (its module and type), in registration order.
    public var provenances: [AdapterProvenance] { names.compactMap { adapters[$0].map(AdapterProvenance.init) } }
}

/// Where an adapter comes from: the module that defines its type, which names the package (or
/// the folder under `Adapters/`) a user would look in.
public struct AdapterProvenance: Sendable, Hashable {
    /// The type's name qualified by its module, `FruitFeed.FruitAdapter`.
    public var typeName: String
    /// The module that defines the type, `FruitFeed`.
    public var module: String

    /// The provenance of `adapter`, from its fully qualified type name.
    public init(_ adapter: any FeedAdapter.Type) {
        typeName = String(reflecting: adapter)
        module = typeName.split(separator: ".", maxSplits: 1).first.map(String.init) ?? typeName
    }
}

/// Two adapters of one program registered under one name: the program cannot tell which a feed
/// means, so it refuses to start.
public struct DuplicateAdapterName: Error, CustomStringConvertible, Equatable {
    /// The name both adapters declare.
    public var name: String
    /// The qualified type of the adapter registered first (`FruitFeed.FruitAdapter`).
    public var first: String
    /// The qualified type of the adapter registered second under the same name.
    public var second: String

    public var description: String {
        "adapter name '\(name)' is registered twice: by \(first) and \(second)"
    }
}
