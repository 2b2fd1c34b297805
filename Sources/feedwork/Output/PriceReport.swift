import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// The text and JSON forms of a priced basket.
enum PriceReport {
    static func text(_ priced: PricedBasket) -> String {
        let quote = priced.quote
        let source = GoodsCatalog.currency
        var lines: [String] = []
        if quote.isIdentity {
            lines.append("Basket in \(priced.currency) (the catalog's currency; no conversion)")
        } else {
            var origin = "as of \(quote.asOf)"
            if let feed = quote.feed { origin += ", feed \(feed)" }
            if let cross = quote.cross {
                // The quotient is seldom a finite decimal: shown to 6 places, used exactly.
                lines.append(
                    "Basket in \(priced.currency) at 1 \(source) = \(DecimalRounding.fixed(quote.rate, places: 6)) \(quote.target) through \(cross.base): 1 \(cross.base) = \(DecimalRounding.plain(cross.sourceRate)) \(source) = \(DecimalRounding.plain(cross.targetRate)) \(quote.target) (\(origin))"
                )
            } else {
                lines.append(
                    "Basket in \(priced.currency) at 1 \(source) = \(DecimalRounding.plain(quote.rate)) \(quote.target) (\(origin))"
                )
            }
        }
        lines.append("")
        var table = TextTable(
            ["good", "quantity", "unit", "price (\(source))", "amount (\(priced.currency))"], numeric: [1, 3, 4])
        for line in priced.lines {
            table.add([
                line.good.name, String(line.quantity), line.good.unit, price(line.good.price), line.displayAmount,
            ])
        }
        table.add(["total", "", "", "", priced.totalText])
        lines.append(table.rendered)
        if priced.linesDifferFromTotal {
            lines.append("")
            lines.append(
                "Amounts are rounded for display; the total is the exact sum rounded once to the minor unit (half up).")
        }
        return lines.joined(separator: "\n")
    }

    /// A catalog price with at least two decimals, and all of its own: `1.30`, `0.955`.
    static func price(_ value: Decimal) -> String {
        let plain = DecimalRounding.plain(value)
        let decimals = plain.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
        return DecimalRounding.fixed(value, places: max(2, decimals))
    }

    /// `price --json`, in snake_case like every `--json` (``JSONText``).
    struct Document: Encodable {
        struct Rate: Encodable {
            /// A cross rate's base and its two stored rates.
            struct Via: Encodable {
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

        struct Item: Encodable {
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
    }

    /// Every amount is a decimal string: exact ones unrounded, `total` rounded once to the minor unit.
    static func json(_ priced: PricedBasket, stale: Bool, maxAge: FeedDuration) -> String {
        let quote = priced.quote
        let document = Document(
            currency: priced.currency, exponent: priced.exponent,
            rate: .init(
                source: quote.source, target: quote.target, rate: DecimalRounding.plain(quote.rate),
                asOf: quote.isIdentity ? nil : quote.asOf, feed: quote.feed,
                maxAge: quote.isIdentity ? nil : maxAge.description, stale: stale,
                via: quote.cross.map {
                    .init(
                        base: $0.base, sourceRate: DecimalRounding.plain($0.sourceRate),
                        targetRate: DecimalRounding.plain($0.targetRate))
                }),
            items: priced.lines.map {
                .init(
                    good: $0.good.name, quantity: $0.quantity, unit: $0.good.unit,
                    unitPrice: DecimalRounding.plain($0.good.price),
                    amount: DecimalRounding.plain($0.exactAmount), amountRounded: $0.displayAmount)
            },
            totalExact: DecimalRounding.plain(priced.exactTotal), total: priced.totalText)
        return JSONText.encode(document)
    }
}
