import FeedKit

/// Prices baskets of the built-in catalog as `feedwork price --json` does, for `feedwork
/// serve`'s `/api/price` and basket page.
public struct BasketPricing: Sendable {
    /// The rates `max_age` of each currency feed of the config, by feed name.
    public let maxAges: [String: FeedDuration]

    public init(maxAges: [String: FeedDuration]) { self.maxAges = maxAges }

    /// The currency the catalog's prices are in.
    public var catalogCurrency: String { GoodsCatalog.currency }

    /// The goods a basket may hold, in catalog order.
    public var goods: [BasketGood] {
        GoodsCatalog.standard.goods.map { BasketGood(name: $0.name, unit: $0.unit, price: $0.priceText) }
    }

    /// `items` (`name` or `name=quantity`) priced in `currency` with the latest rate `rows` holds.
    ///
    /// - Throws: ``Failure`` ``Failure/Kind/badRequest`` for unknown goods, a bad quantity or
    ///   code; ``Failure/Kind/notFound`` for a currency the stored currency list lacks or one
    ///   into which no rate is stored; ``Failure/Kind/unreadable`` when the rates cannot be read.
    public func price(items: [String], currency: String, rows: any StoredRows) async throws(Failure) -> PriceDocument {
        guard let code = CurrencyCode.normalized(currency) else {
            throw Failure(.badRequest, "currency '\(currency)' is not a three-letter ISO 4217 code (e.g. EUR)")
        }
        let catalog = GoodsCatalog.standard
        let basket: Basket
        do {
            basket = try Basket.parse(arguments: items)
        } catch {
            throw Failure(.badRequest, error.description)
        }
        if basket.isEmpty { throw Failure(.badRequest, PricingError.emptyBasket.description) }
        if let unknown = BasketQuote.unknownGoods(basket, in: catalog) {
            throw Failure(.badRequest, unknown.description)
        }
        let quote: ExchangeQuote
        let maxAge: FeedDuration
        if code == GoodsCatalog.currency {
            (quote, maxAge) = (.identity(code), CurrencyEntities.defaultRatesMaxAge)
        } else {
            do {
                (quote, maxAge) = try await BasketQuote.storedQuote(into: code, rows: rows) { maxAges[$0] }
            } catch let missing as BasketQuote.MissingRate {
                // A currency the store does not know is like a feed it does not have: not found.
                guard case .noRate = missing else { throw Failure(.notFound, missing.description) }
                throw Failure(.notFound, "\(missing); run `feedwork run`")
            } catch {
                throw Failure(.unreadable, "cannot read rates: \(error)")
            }
        }
        do {
            let (priced, stale) = try BasketQuote.price(basket, catalog: catalog, quote: quote, maxAge: maxAge)
            return PriceDocument(priced, stale: stale, maxAge: maxAge)
        } catch {
            throw Failure(.badRequest, error.description)
        }
    }

    /// Why a basket was not priced, with the message to show.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public enum Kind: Sendable {
            /// Something wrong with the request: goods, quantities, the currency code.
            case badRequest
            /// The store does not know the currency, or holds no rate into it.
            case notFound
            /// The stored rates cannot be read.
            case unreadable
        }

        public var kind: Kind
        public var message: String
        public var description: String { message }

        public init(_ kind: Kind, _ message: String) {
            self.kind = kind
            self.message = message
        }
    }
}

/// One good of the catalog, as the basket page lists it.
public struct BasketGood: Sendable, Hashable {
    public var name: String
    public var unit: String
    /// The unit price, an exact decimal, in ``BasketPricing/catalogCurrency``.
    public var price: String

    public init(name: String, unit: String, price: String) {
        self.name = name
        self.unit = unit
        self.price = price
    }
}
