import FeedEngine

/// The adapters `feedwork` ships with: those that Package.swift lists, in the list that the
/// `BuiltinAdapterList` plugin generates (`builtinAdapterTypes`). A new adapter is a new folder
/// under `Adapters/` plus its name in Package.swift.
enum BuiltinAdapters {
    static let registry = AdapterRegistry(builtinAdapterTypes)
}
