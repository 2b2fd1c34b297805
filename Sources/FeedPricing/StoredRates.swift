import FeedKit
import Foundation

/// Reads rates and currencies that currency feeds stored, for pricing.
public struct StoredRates: Sendable {
    public let store: any StoredRows

    public init(store: any StoredRows) { self.store = store }

    /// The latest stored `source`->`target` quote (greatest `as_of`), or `nil`.
    public func latest(from source: String, to target: String) async throws -> ExchangeQuote? {
        let rows = try await store.rows(
            of: CurrencyEntities.rate.name, where: ["source=\(source)", "target=\(target)"],
            order: ["-as_of", "-_first_seen"], limit: 1)
        guard let row = rows.first, case .text(let rateText)? = row["rate"], case .text(let asOf)? = row["as_of"],
            let rate = DecimalRounding.decimal(rateText)
        else { return nil }
        var feed: String?
        if case .text(let name)? = row["_feed"] { feed = name }
        return ExchangeQuote(source: source, target: target, rate: rate, asOf: asOf, feed: feed)
    }

    /// The rate from `source` to `target`: the latest stored one, or else one through a base
    /// currency that quotes both (the ECB quotes every rate from EUR), from the latest rates of
    /// one feed and one `as_of` (``ExchangeQuote/Cross``); `nil` when neither is stored.
    public func quote(from source: String, to target: String) async throws -> ExchangeQuote? {
        if let direct = try await latest(from: source, to: target) { return direct }
        // Bases quoting `source`, newest first; the first that quotes `target` at the same time wins.
        let candidates = try await store.rows(
            of: CurrencyEntities.rate.name, where: ["target=\(source)"], order: ["-as_of", "-_first_seen"],
            limit: 50)
        for row in candidates {
            guard case .text(let base)? = row["source"], case .text(let asOf)? = row["as_of"],
                case .text(let sourceText)? = row["rate"], let sourceRate = DecimalRounding.decimal(sourceText),
                sourceRate != 0
            else { continue }
            var feed: String?
            if case .text(let name)? = row["_feed"] { feed = name }
            let targetRate: Decimal
            if base == target {
                targetRate = 1
            } else {
                var filters = ["source=\(base)", "target=\(target)", "as_of=\(asOf)"]
                if let feed { filters.append("_feed=\(feed)") }
                let match = try await store.rows(
                    of: CurrencyEntities.rate.name, where: filters, order: ["-_first_seen"], limit: 1)
                guard case .text(let text)? = match.first?["rate"], let rate = DecimalRounding.decimal(text) else {
                    continue
                }
                targetRate = rate
            }
            return ExchangeQuote(
                source: source, target: target,
                cross: ExchangeQuote.Cross(base: base, sourceRate: sourceRate, targetRate: targetRate), asOf: asOf,
                feed: feed)
        }
        return nil
    }

    /// Whether any currency feed stored the currency list with `code` in it; `nil` when no list is stored.
    public func knows(_ code: String) async throws -> Bool? {
        let codes = try await store.rows(of: CurrencyEntities.currency.name, where: [], order: [], limit: nil)
            .compactMap { row -> String? in if case .text(let code)? = row["code"] { code } else { nil } }
        guard !codes.isEmpty else { return nil }
        return codes.contains(code)
    }
}
