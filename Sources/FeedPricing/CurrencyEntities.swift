import FeedKit

/// The entities currency feeds store and pricing reads: the currency list and the rates, kept
/// as history. The currency adapter writes them (``currency``, ``rate``); ``StoredRates`` reads
/// them.
public enum CurrencyEntities {
    /// How long a rate stays current unless its feed sets `rates.max_age`; pricing warns about
    /// older rates, and uses this for rates of a feed the config no longer has.
    public static let defaultRatesMaxAge = FeedDuration.minutes(60)

    public static let currency = EntitySchema(
        name: "currency",
        columns: [
            Column("code", .text, nullable: false, summary: "ISO 4217 code, e.g. EUR (the key)"),
            Column("name", .text, nullable: false, summary: "the currency's English name"),
        ],
        key: ["code"],
        order: [.ascending("code")],
        summary: "A currency the rates API knows.")

    public static let rate = EntitySchema(
        name: "exchange_rate",
        columns: [
            Column("source", .text, nullable: false, summary: "the currency quoted from, e.g. USD"),
            Column("target", .text, nullable: false, summary: "the currency quoted to, e.g. EUR"),
            Column("rate", .decimal, nullable: false, summary: "units of target per unit of source, exact"),
            Column("as_of", .timestamp, nullable: false, summary: "when the API quoted the rate (UTC)"),
        ],
        key: ["source", "target", "as_of"],
        relations: [
            Relation(column: "source", entity: "currency", labelColumn: "name"),
            Relation(column: "target", entity: "currency", labelColumn: "name"),
        ],
        order: [.ascending("source"), .ascending("target"), .descending("as_of")],
        summary: "A quoted exchange rate; one row per source, target and as_of (history).")
}
