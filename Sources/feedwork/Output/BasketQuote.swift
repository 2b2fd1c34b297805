import CurrencyFeed
import FeedKit
import Foundation

/// The steps `feedwork price` and `feedwork serve`'s `/api/price` share, so that both price a
/// basket the same way.
enum BasketQuote {
    /// Goods of `basket` that `catalog` does not sell, as the error that names them.
    static func unknownGoods(_ basket: Basket, in catalog: GoodsCatalog) -> PricingError? {
        let unknown = basket.items.filter { catalog.good(named: $0.name) == nil }.map(\.name)
        return unknown.isEmpty ? nil : .unknownGoods(unknown, known: catalog.names)
    }

    /// `basket` priced with `quote`, and whether the quote is older than `maxAge` at `now`.
    static func price(
        _ basket: Basket, catalog: GoodsCatalog, quote: ExchangeQuote, maxAge: FeedDuration, now: Date = Date()
    ) throws(PricingError) -> (priced: PricedBasket, stale: Bool) {
        let priced = try BasketPricer.price(basket, catalog: catalog, quote: quote)
        return (priced, quote.age(at: now).map { $0 > maxAge.seconds } ?? false)
    }
}
