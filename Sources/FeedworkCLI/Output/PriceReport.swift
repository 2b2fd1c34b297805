import FeedEngine
import FeedKit
import FeedPricing
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
                line.good.name, String(line.quantity), line.good.unit, line.good.priceText, line.displayAmount,
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

    /// `price --json`, in snake_case like every `--json` (``JSONText``).
    static func json(_ priced: PricedBasket, stale: Bool, maxAge: FeedDuration) -> String {
        JSONText.encode(PriceDocument(priced, stale: stale, maxAge: maxAge))
    }
}
