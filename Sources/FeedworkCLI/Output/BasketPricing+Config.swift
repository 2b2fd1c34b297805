import CurrencyFeed
import FeedEngine
import FeedKit
import FeedPricing

extension BasketPricing {
    /// The pricing of `feedwork serve`, with the rates `max_age` of the config's currency feeds.
    init(config: FeedsConfig?) {
        var maxAges: [String: FeedDuration] = [:]
        for feed in config?.feeds ?? [] {
            if let adapter = feed.adapter as? CurrencyAdapter { maxAges[feed.name] = adapter.ratesMaxAge }
        }
        self.init(maxAges: maxAges)
    }
}
