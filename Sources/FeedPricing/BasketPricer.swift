import FeedKit
import Foundation

/// One line of a priced basket.
public struct PricedLine: Sendable, Hashable {
    public var good: Good
    public var quantity: Int
    /// price × quantity × rate, unrounded.
    public var exactAmount: Decimal
    /// The amount rounded to the currency's minor unit, for display only.
    public var displayAmount: String
}

/// A basket priced in one currency.
///
/// Line amounts are kept exact; the total is their exact sum rounded **once** to the currency's
/// minor unit (ISO 4217 exponent), half away from zero. Line amounts are shown rounded too, so
/// the shown lines may differ from the total by a minor unit or so: the total is the one to pay.
public struct PricedBasket: Sendable, Hashable {
    /// The currency the basket is priced in.
    public var currency: String
    /// Decimals of the currency's minor unit (2 for EUR, 0 for JPY, 3 for BHD).
    public var exponent: Int
    /// The rate used (rate 1 when the currency is the catalog's own).
    public var quote: ExchangeQuote
    public var lines: [PricedLine]
    /// The catalog total converted, unrounded: the sum of the exact line amounts (a cross rate
    /// divides this sum once, where each line divides on its own).
    public var exactTotal: Decimal
    /// The total rounded once to the minor unit.
    public var total: Decimal

    /// The total with exactly ``exponent`` decimals: `5.04`, `583`, `1.989`.
    public var totalText: String { DecimalRounding.fixed(total, places: exponent) }

    /// Whether the rounded line amounts add up to something other than the total.
    public var linesDifferFromTotal: Bool {
        let shown = lines.compactMap { DecimalRounding.decimal($0.displayAmount) }.reduce(Decimal(0), +)
        return shown != total
    }
}

/// Why a basket cannot be priced.
public enum PricingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The basket names goods the catalog does not have.
    case unknownGoods([String], known: [String])
    case emptyBasket
    /// The quote does not convert from the catalog's currency to the asked one.
    case wrongQuote(expected: String, found: String)

    public var description: String {
        switch self {
        case .unknownGoods(let names, let known):
            let list = names.map { "'\($0)'" }.joined(separator: ", ")
            return "unknown good\(names.count == 1 ? "" : "s") \(list); known goods: \(known.joined(separator: ", "))"
        case .emptyBasket:
            return "the basket is empty; name goods, e.g. milk eggs=2"
        case .wrongQuote(let expected, let found):
            return "the rate converts \(found), not \(expected)"
        }
    }
}

/// Prices a basket: pure, exact `Decimal` arithmetic with one rounding at the end.
public enum BasketPricer {
    /// Prices `basket` from `catalog` (prices in ``GoodsCatalog/currency``) with `quote`, which
    /// must convert the catalog's currency into the wanted one.
    ///
    /// One Milk (1.30 USD) at a USD->EUR rate of 1.5 is 1.95 EUR.
    /// - Throws: ``PricingError`` for unknown goods, an empty basket or a quote of other currencies.
    public static func price(_ basket: Basket, catalog: GoodsCatalog, quote: ExchangeQuote) throws(PricingError)
        -> PricedBasket
    {
        guard quote.source == GoodsCatalog.currency else {
            throw .wrongQuote(
                expected: "\(GoodsCatalog.currency)->\(quote.target)", found: "\(quote.source)->\(quote.target)")
        }
        guard !basket.isEmpty else { throw .emptyBasket }
        let unknown = basket.items.filter { catalog.good(named: $0.name) == nil }.map(\.name)
        guard unknown.isEmpty else { throw .unknownGoods(unknown, known: catalog.names) }
        let exponent = Money.exponent(of: quote.target)
        var lines: [PricedLine] = []
        // The total converts the sum of the catalog amounts, so a cross rate divides once.
        var catalogTotal = Decimal(0)
        for item in basket.items {
            guard let good = catalog.good(named: item.name) else { continue }
            catalogTotal += good.price * Decimal(item.quantity)
            let amount = quote.convert(good.price * Decimal(item.quantity))
            lines.append(
                PricedLine(
                    good: good, quantity: item.quantity, exactAmount: amount,
                    displayAmount: DecimalRounding.fixed(amount, places: exponent)))
        }
        let exactTotal = quote.convert(catalogTotal)
        return PricedBasket(
            currency: quote.target, exponent: exponent, quote: quote, lines: lines, exactTotal: exactTotal,
            total: DecimalRounding.rounded(exactTotal, places: exponent))
    }
}
