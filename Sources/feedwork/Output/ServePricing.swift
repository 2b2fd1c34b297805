import CurrencyFeed
import FeedEngine
import FeedKit
import FeedServer
import Foundation

/// The basket pricing of `feedwork serve`: `feedwork price --json` of the built-in catalog.
struct ServePricing: BasketPricing {
    /// The rates `max_age` of each currency feed of the config, by feed name.
    let maxAges: [String: FeedDuration]

    init(config: FeedsConfig?) {
        var maxAges: [String: FeedDuration] = [:]
        for feed in config?.feeds ?? [] {
            if let adapter = feed.adapter as? CurrencyAdapter { maxAges[feed.name] = adapter.ratesMaxAge }
        }
        self.maxAges = maxAges
    }

    var catalogCurrency: String { GoodsCatalog.currency }

    var goods: [BasketGood] {
        GoodsCatalog.standard.goods.map { BasketGood(name: $0.name, unit: $0.unit, price: PriceReport.price($0.price)) }
    }

    func price(items: [String], currency: String, rows: any StoredRows) throws(ServeError) -> String {
        guard let code = CurrencyCode.normalized(currency) else {
            throw ServeError(.badRequest, "currency '\(currency)' is not a three-letter ISO 4217 code (e.g. EUR)")
        }
        let catalog = GoodsCatalog.standard
        let basket: Basket
        do {
            basket = try Basket.parse(arguments: items)
        } catch {
            throw ServeError(.badRequest, error.description)
        }
        if basket.isEmpty { throw ServeError(.badRequest, PricingError.emptyBasket.description) }
        if let unknown = BasketQuote.unknownGoods(basket, in: catalog) {
            throw ServeError(.badRequest, unknown.description)
        }
        let quote: ExchangeQuote
        let maxAge: FeedDuration
        if code == GoodsCatalog.currency {
            (quote, maxAge) = (.identity(code), CurrencyAdapter.defaultRatesMaxAge)
        } else {
            do {
                (quote, maxAge) = try BasketQuote.storedQuote(into: code, rows: rows) { maxAges[$0] }
            } catch let missing as BasketQuote.MissingRate {
                guard case .noRate = missing else { throw ServeError(.badRequest, missing.description) }
                throw ServeError(.notFound, "\(missing); run `feedwork run`")
            } catch {
                throw ServeError(.internalServerError, "cannot read rates: \(error)")
            }
        }
        do {
            let (priced, stale) = try BasketQuote.price(basket, catalog: catalog, quote: quote, maxAge: maxAge)
            return PriceReport.json(priced, stale: stale, maxAge: maxAge)
        } catch {
            throw ServeError(.badRequest, error.description)
        }
    }
}
