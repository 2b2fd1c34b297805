import FeedCore

/// Reads rates and currencies that currency feeds stored, for pricing.
public struct StoredRates: Sendable {
    public let store: EntityStore

    public init(store: EntityStore) { self.store = store }

    /// The latest stored `source`->`target` quote (greatest `as_of`), or `nil`.
    public func latest(from source: String, to target: String) throws -> ExchangeQuote? {
        guard try hasTable(CurrencyAdapter.rateSchema.name) else { return nil }
        let rows = try store.query(
            """
            SELECT rate, as_of, _feed FROM exchange_rate WHERE source = ? AND target = ?
            ORDER BY as_of DESC, _first_seen DESC LIMIT 1
            """, arguments: [.text(source), .text(target)])
        guard let row = rows.first, case .text(let rateText)? = row["rate"], case .text(let asOf)? = row["as_of"],
            let rate = DecimalRounding.decimal(rateText)
        else { return nil }
        var feed: String?
        if case .text(let name)? = row["_feed"] { feed = name }
        return ExchangeQuote(source: source, target: target, rate: rate, asOf: asOf, feed: feed)
    }

    /// Whether any currency feed stored the currency list with `code` in it; `nil` when no list is stored.
    public func knows(_ code: String) throws -> Bool? {
        guard try hasTable(CurrencyAdapter.currencySchema.name) else { return nil }
        let rows = try store.query(
            "SELECT count(*) AS n, sum(code = ?) AS found FROM currency", arguments: [.text(code)])
        guard case .integer(let count)? = rows.first?["n"], count > 0 else { return nil }
        if case .integer(let found)? = rows.first?["found"] { return found > 0 }
        return false
    }

    private func hasTable(_ name: String) throws -> Bool {
        try !store.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [.text(name)])
            .isEmpty
    }
}
