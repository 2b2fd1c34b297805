import FeedKit
import Foundation

/// The fruit price list: `{"fruit":[{"type","price","weight"}]}`, prices in pence and weights in
/// grams, plus usage statistics sent to a stats endpoint.
///
/// ```yaml
/// - name: bbc-fruit
///   adapter: fruit
///   url: https://raw.githubusercontent.com/fmtvp/recruit-test-data/master/data.json
///   stats_url: https://raw.githubusercontent.com/fmtvp/recruit-test-data/master/stats
/// ```
public struct FruitAdapter: FeedAdapter {
    public struct Options: Decodable, Sendable {
        /// The price list: an http(s) URL, a `file://` URL or a path.
        public var url: String
        /// The ISO 4217 code of the prices' currency; the list gives minor units (pence).
        public var currency: String?
        /// Where usage statistics go, as `GET {stats_url}?event=NAME&data=VALUE`.
        public var statsURL: String?
        /// Within this age the cached list is used without a request.
        public var maxAge: FeedDuration?

        enum CodingKeys: String, CodingKey {
            case url, currency
            case statsURL = "stats_url"
            case maxAge = "max_age"
        }
    }

    public static let schema = EntitySchema(
        name: "fruit",
        columns: [
            Column("type", .text, nullable: false, summary: "the fruit's name, trimmed and lowercased (the key)"),
            Column(
                "price", .integer, nullable: false, summary: "price in minor units (pence)", role: .money),
            Column("currency", .text, nullable: false, summary: "ISO 4217 code of the price"),
            Column("weight", .integer, nullable: false, summary: "weight in grams"),
            Column("price_display", .text, summary: "the price as the app showed it, e.g. £1.49"),
            Column("weight_display", .text, summary: "the weight in kilograms, e.g. 0.12 kg"),
        ],
        key: ["type"],
        order: [.ascending("type")],
        summary: "A fruit with its price and weight.")

    public static let description = AdapterDescription(
        name: "fruit",
        summary: "A fruit price list (price in pence, weight in grams) with usage statistics.",
        options: [
            OptionHelp("url", "string", "the price list: http(s) URL, file:// URL or path"),
            OptionHelp("currency", "string", "ISO 4217 code of the prices", default: "GBP"),
            OptionHelp(
                "stats_url", "string", "stats endpoint; events load, display and error are sent to it", default: "none"),
            OptionHelp("max_age", "duration", "use the cached list without a request within this age", default: "none"),
        ],
        entities: [schema])

    let options: Options
    let currency: String

    public init(options: Options, feed: FeedSetup) throws {
        self.options = options
        currency = try Money.currencyOption(options.currency, default: "GBP", at: ["currency"])
    }

    public func run(_ pass: FeedPass) async throws {
        let requestStart = pass.elapsedMilliseconds
        let response = try await pass.fetch(FetchRequest(url: options.url, maxAge: options.maxAge))
        let loadMilliseconds = pass.elapsedMilliseconds - requestStart
        var batch = try FruitMapping.map(response: response, currency: currency, feed: pass.feed)
        batch.source = RecordSource(response)
        try await pass.write(batch)
        if let statsURL = options.statsURL {
            try await pass.enqueueOutbox([
                FruitStats.url(statsURL, event: .load, data: String(loadMilliseconds)),
                // Taken last, right before the pass commits and the data becomes queryable.
                FruitStats.url(statsURL, event: .display, data: String(pass.elapsedMilliseconds)),
            ])
        }
    }

    public func outboxAfterFailure(_ error: any Error, elapsedMilliseconds: Int) -> [String] {
        guard let statsURL = options.statsURL else { return [] }
        return [FruitStats.url(statsURL, event: .error, data: String(describing: error))]
    }
}
