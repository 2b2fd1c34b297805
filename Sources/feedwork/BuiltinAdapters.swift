import ClassifiedFeed
import CurrencyFeed
import DestinationFeed
import FeedCore
import FruitFeed
import JSONFeed

/// The adapters `feedwork` ships with. A new adapter is a new folder under `Adapters/` plus one
/// line here.
enum BuiltinAdapters {
    static let registry = AdapterRegistry([
        FruitAdapter.self,
        DestinationAdapter.self,
        ClassifiedAdapter.self,
        CurrencyAdapter.self,
        JSONAdapter.self,
    ])
}
