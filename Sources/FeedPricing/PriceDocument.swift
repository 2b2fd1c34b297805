import FeedKit
import Foundation

/// A priced basket as `feedwork price --json` prints it and `feedwork serve`'s `/api/price`
/// answers: every amount a decimal string, exact ones unrounded, `total` rounded once to the
/// minor unit. Its members become snake_case when encoded as the CLI and server do (`JSONText`).
public struct PriceDocument: Encodable, Sendable {
    public struct Rate: Encodable, Sendable {
        /// A cross rate's base and its two stored rates.
        public struct Via: Encodable, Sendable {
            var base: String
            var sourceRate: String
            var targetRate: String
        }

        var source: String
        var target: String
        var rate: String
        var asOf: String?
        var feed: String?
        var maxAge: String?
        var stale: Bool
        var via: Via?
    }

    public struct Item: Encodable, Sendable {
        var good: String
        var quantity: Int
        var unit: String
        var unitPrice: String
        var amount: String
        var amountRounded: String
    }

    var currency: String
    var exponent: Int
    var rate: Rate
    var items: [Item]
    var totalExact: String
    var total: String

    /// `priced`, with whether its rate is older than `maxAge`.
    public init(_ priced: PricedBasket, stale: Bool, maxAge: FeedDuration) {
        let quote = priced.quote
        currency = priced.currency
        exponent = priced.exponent
        rate = Rate(
            source: quote.source, target: quote.target, rate: DecimalRounding.plain(quote.rate),
            asOf: quote.isIdentity ? nil : quote.asOf, feed: quote.feed,
            maxAge: quote.isIdentity ? nil : maxAge.description, stale: stale,
            via: quote.cross.map {
                Rate.Via(
                    base: $0.base, sourceRate: DecimalRounding.plain($0.sourceRate),
                    targetRate: DecimalRounding.plain($0.targetRate))
            })
        items = priced.lines.map {
            Item(
                good: $0.good.name, quantity: $0.quantity, unit: $0.good.unit,
                unitPrice: DecimalRounding.plain($0.good.price),
                amount: DecimalRounding.plain($0.exactAmount), amountRounded: $0.displayAmount)
        }
        totalExact = DecimalRounding.plain(priced.exactTotal)
        total = priced.totalText
    }
}
