import FeedKit
import Foundation

/// The steps `feedwork price` and `feedwork serve`'s `/api/price` share, so that both price a
/// basket the same way.
public enum BasketQuote {
    /// Goods of `basket` that `catalog` does not sell, as the error that names them.
    public static func unknownGoods(_ basket: Basket, in catalog: GoodsCatalog) -> PricingError? {
        let unknown = basket.items.filter { catalog.good(named: $0.name) == nil }.map(\.name)
        return unknown.isEmpty ? nil : .unknownGoods(unknown, known: catalog.names)
    }

    /// `basket` priced with `quote`, and whether the quote is older than `maxAge` at `now`.
    public static func price(
        _ basket: Basket, catalog: GoodsCatalog, quote: ExchangeQuote, maxAge: FeedDuration, now: Date = Date()
    ) throws(PricingError) -> (priced: PricedBasket, stale: Bool) {
        let priced = try BasketPricer.price(basket, catalog: catalog, quote: quote)
        return (priced, quote.age(at: now).map { $0 > maxAge.seconds } ?? false)
    }

    /// Why no rate into a currency is stored.
    public enum MissingRate: Error, CustomStringConvertible {
        /// The stored currency list does not have the code.
        case unknownCurrency(String)
        /// The code may be known, but no catalog-currency->code rate is stored.
        case noRate(String)

        public var description: String {
            switch self {
            case .unknownCurrency(let code): "unknown currency '\(code)': it is not in the stored currency list"
            case .noRate(let code): "no stored \(GoodsCatalog.currency)->\(code) rate"
            }
        }
    }

    /// The latest stored rate from the catalog's currency into `code` (not the catalog's own),
    /// or one through a base currency that quotes both (``StoredRates/quote(from:to:)``), with
    /// the `max_age` of the feed that stored it (`maxAge(feed)`, else the adapter's default).
    ///
    /// - Throws: ``MissingRate``, or the store's error when it cannot be read.
    public static func storedQuote(into code: String, rows: any StoredRows, maxAge: (String) -> FeedDuration?)
        async throws
        -> (quote: ExchangeQuote, maxAge: FeedDuration)
    {
        let rates = StoredRates(store: rows)
        guard let quote = try await rates.quote(from: GoodsCatalog.currency, to: code) else {
            throw try await rates.knows(code) == false ? MissingRate.unknownCurrency(code) : MissingRate.noRate(code)
        }
        return (quote, quote.feed.flatMap(maxAge) ?? CurrencyEntities.defaultRatesMaxAge)
    }
}
