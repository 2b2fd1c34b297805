import FeedKit

/// A classified-ads site: a list of categories and a listing of ads, fetched together each pass.
///
/// Categories are `[{"id","name"}]`; ads are `[{"id","category_id","title","description","price",
/// "images_url":{"small","thumb"},"creation_date","is_urgent","siret"?}]`. Every ad must point at
/// a category of the same pass; categories and ads commit in the feed's one transaction.
///
/// ```yaml
/// - name: leboncoin
///   adapter: classified
///   categories_url: https://raw.githubusercontent.com/leboncoin/paperclip/master/categories.json
///   listing_url: https://raw.githubusercontent.com/leboncoin/paperclip/master/listing.json
/// ```
public struct ClassifiedAdapter: FeedAdapter {
    public struct Options: Decodable, Sendable {
        /// The categories: an http(s) URL, a `file://` URL or a path.
        public var categoriesURL: String
        /// The ads: an http(s) URL, a `file://` URL or a path.
        public var listingURL: String
        /// The ISO 4217 code of the ads' prices.
        public var currency: String?
        /// Within this age the cached responses are used without a request.
        public var maxAge: FeedDuration?

        enum CodingKeys: String, CodingKey {
            case currency
            case categoriesURL = "categories_url"
            case listingURL = "listing_url"
            case maxAge = "max_age"
        }
    }

    public static let description = AdapterDescription(
        name: "classified",
        summary: "Classified ads with their categories (prices in minor units, urgent ads first).",
        options: [
            OptionHelp("categories_url", "string", "the categories: http(s) URL, file:// URL or path"),
            OptionHelp("listing_url", "string", "the ads: http(s) URL, file:// URL or path"),
            OptionHelp("currency", "string", "ISO 4217 code of the prices", default: "EUR"),
            OptionHelp(
                "max_age", "duration", "use the cached responses without a request within this age", default: "none"),
        ],
        entities: [ClassifiedSchema.category, ClassifiedSchema.classified])

    let options: Options
    let currency: String

    public init(options: Options, feed: FeedSetup) throws {
        self.options = options
        currency = try Money.currencyOption(options.currency, default: "EUR", at: ["currency"])
    }

    public func run(_ pass: FeedPass) async throws {
        let categoriesResponse = try await pass.fetch(FetchRequest(url: options.categoriesURL, maxAge: options.maxAge))
        var categories = try CategoryMapping.map(
            ClassifiedPayload.list(in: categoriesResponse, feed: pass.feed))
        categories.batch.source = RecordSource(categoriesResponse)
        let listingResponse = try await pass.fetch(FetchRequest(url: options.listingURL, maxAge: options.maxAge))
        var ads = try ListingMapping.map(
            ClassifiedPayload.list(in: listingResponse, feed: pass.feed), categories: categories.ids,
            currency: currency)
        ads.source = RecordSource(listingResponse)
        try await pass.write(categories.batch)
        try await pass.write(ads)
    }
}
