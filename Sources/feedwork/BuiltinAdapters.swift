import ClassifiedFeed
import CurrencyFeed
import DestinationFeed
import FeedCore
import FruitFeed

/// The adapters `feedwork` ships with. A new adapter is a new folder under `Adapters/` plus one
/// line here.
enum BuiltinAdapters {
    static let registry = AdapterRegistry([
        FruitAdapter.self,
        DestinationAdapter.self,
        ClassifiedAdapter.self,
        CurrencyAdapter.self,
    ])
}
