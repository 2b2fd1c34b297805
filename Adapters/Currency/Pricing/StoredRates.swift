import FeedKit

/// Reads rates and currencies that currency feeds stored, for pricing.
public struct StoredRates: Sendable {
    public let store: any StoredRows

    public init(store: any StoredRows) { self.store = store }

    /// The latest stored `source`->`target` quote (greatest `as_of`), or `nil`.
    public func latest(from source: String, to target: String) throws -> ExchangeQuote? {
        let rows = try store.rows(
            of: CurrencyAdapter.rateSchema.name, where: ["source=\(source)", "target=\(target)"],
            order: ["-as_of", "-_first_seen"], limit: 1)
        guard let row = rows.first, case .text(let rateText)? = row["rate"], case .text(let asOf)? = row["as_of"],
            let rate = DecimalRounding.decimal(rateText)
        else { return nil }
        var feed: String?
        if case .text(let name)? = row["_feed"] { feed = name }
        return ExchangeQuote(source: source, target: target, rate: rate, asOf: asOf, feed: feed)
    }

    /// Whether any currency feed stored the currency list with `code` in it; `nil` when no list is stored.
    public func knows(_ code: String) throws -> Bool? {
        let codes = try store.rows(of: CurrencyAdapter.currencySchema.name, where: [], order: [], limit: nil)
            .compactMap { row -> String? in if case .text(let code)? = row["code"] { code } else { nil } }
        guard !codes.isEmpty else { return nil }
        return codes.contains(code)
    }
}
