import FeedEngine
import FeedKit
import Synchronization

/// The adapters this program was started with: those passed to ``Feedwork/main(adapters:)``
/// (for `feedwork` itself, the built-in ones that Package.swift lists). Every command reads them
/// here; they are set once, at start, like swift-log's `LoggingSystem.bootstrap`.
enum RegisteredAdapters {
    private static let registered = Mutex<AdapterRegistry?>(nil)

    /// Registers `adapters` for every command of this process, refusing two under one name.
    ///
    /// - Precondition: called once, before any command runs (a second call is the program's
    ///   mistake, not the user's).
    static func bootstrap(_ adapters: [any FeedAdapter.Type]) throws(DuplicateAdapterName) {
        let registry = try AdapterRegistry(unique: adapters)
        registered.withLock { current in
            precondition(current == nil, "the adapters are registered once, at start")
            current = registry
        }
    }

    /// The registry of the adapters passed at start; empty before then (a feed naming an adapter
    /// then fails as an unknown adapter).
    static var registry: AdapterRegistry { registered.withLock { $0 } ?? AdapterRegistry([]) }
}
