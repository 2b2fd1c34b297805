import FeedKit

/// Places to go, from two kinds of source chosen with `source:`, each with its own entity:
/// `delivery` and `flight_offer` (``DestinationSchema``).
///
/// **Deliveries** (`source: deliveries`): an offset/limit list of
/// `[{"id", "description", "imageUrl", "location": {"lat", "lng", "address"}}]`, read page by
/// page from offset 0 until an empty page (or `max_pages`). `url` is either an http(s) URL, to
/// which `offset` and `limit` query parameters are added, or a template with `{offset}` (and
/// optionally `{limit}`), such as a file path `deliveries-{offset}.json` where a missing file is
/// the empty last page. Each page is one request, retried and cached on its own: a page that
/// still fails after the retries is served from the cache and the report lists it as stale. A
/// delivery without an `id` goes to `_rejects`; the rest of its page lands. Rows are never
/// deleted. Rows go to `delivery`, keyed by the delivery's id.
///
/// **Flights** (`source: flights`): a flight search (`{"currency", "data": [offer]}`). `params`
/// are added to an http(s) URL as query parameters, in order; their `{{today|dd/MM/yyyy}}`
/// templates are evaluated at the start of the pass (UTC). The first `top` offers, in the API's
/// order, are kept with `rank` 1, 2, ... and `offer_date` (the pass's UTC day). Prices become
/// exact minor units of the response's `currency`; departure and arrival come from `dTimeUTC`
/// and `aTimeUTC`; the image URL is `image_template` filled from the offer's fields. With
/// `no_repeats`, an offer to a destination (city code, else airport) that this feed offered on
/// an earlier day, or already kept today, is passed over for the next one; today's rows from an
/// earlier pass do not count as earlier. Rows go to `flight_offer`, keyed by the offer's id.
///
/// ```yaml
/// - name: deliveries
///   adapter: destination
///   source: deliveries
///   url: https://mock-api-mobile.dev.lalamove.com/deliveries
///   limit: 20
///   max_pages: 50
/// - name: flights
///   adapter: destination
///   source: flights
///   url: https://api.skypicker.com/flights
///   params:
///     v: "3"
///     sort: popularity
///     flyFrom: PRG
///     to: anywhere
///     dateFrom: "{{today|dd/MM/yyyy}}"
///     dateTo: "{{today+1d|dd/MM/yyyy}}"
///     limit: "30"
///     partner: picky
///   top: 5
///   no_repeats: true
/// ```
public struct DestinationAdapter: FeedAdapter {
    /// Which kind of API the feed reads.
    public enum Source: String, Decodable, Sendable, CaseIterable {
        case deliveries
        case flights
    }

    public struct Options: Decodable, Sendable {
        public var source: Source
        /// Deliveries: an http(s) URL or a template with `{offset}`; flights: a URL or a path.
        public var url: String
        /// Deliveries: items per page.
        public var limit: Int?
        /// Deliveries: the most pages read in one pass.
        public var maxPages: Int?
        /// Flights: query parameters, in order, with date templates.
        public var params: OrderedMapping<TemplatedString>?
        /// Flights: how many offers are kept per day.
        public var top: Int?
        /// Flights: the image URL, with `{field}` taken from the offer.
        public var imageTemplate: String?
        /// Flights: pass over destinations this feed offered on an earlier day.
        public var noRepeats: Bool?

        enum CodingKeys: String, CodingKey {
            case source, url, limit, params, top
            case maxPages = "max_pages"
            case imageTemplate = "image_template"
            case noRepeats = "no_repeats"
        }
    }

    /// The entity of `source: deliveries`.
    public static let deliverySchema = DestinationSchema.delivery
    /// The entity of `source: flights`.
    public static let flightOfferSchema = DestinationSchema.flightOffer

    public static let description = AdapterDescription(
        name: "destination",
        summary: "Places to go: paged deliveries (offset/limit) or a day's top flight offers.",
        options: [
            OptionHelp("source", "string", "deliveries (an offset/limit list) or flights (a flight search)"),
            OptionHelp(
                "url", "string",
                "deliveries: http(s) URL (offset and limit are added) or template with {offset}/{limit}, "
                    + "e.g. deliveries-{offset}.json; flights: http(s) URL, file:// URL or path"),
            OptionHelp("limit", "integer", "deliveries: items per page", default: "20"),
            OptionHelp("max_pages", "integer", "deliveries: the most pages read in one pass", default: "50"),
            OptionHelp(
                "params", "mapping", "flights: query parameters, with date templates like {{today+1d|dd/MM/yyyy}}",
                default: "none"),
            OptionHelp("top", "integer", "flights: offers kept per day, in the API's order", default: "5"),
            OptionHelp(
                "image_template", "string", "flights: image URL with {field} from the offer",
                default: ImageTemplate.kiwi),
            OptionHelp(
                "no_repeats", "boolean", "flights: never offer a destination this feed offered on an earlier day",
                default: "false"),
        ],
        entities: [deliverySchema, flightOfferSchema])

    enum Plan: Sendable {
        case deliveries(DeliveryPaging)
        case flights(FlightSearch)
    }

    let plan: Plan

    /// The one entity of the feed's source.
    public var entities: [EntityBinding] {
        switch plan {
        case .deliveries: [EntityBinding(Self.deliverySchema)]
        case .flights: [EntityBinding(Self.flightOfferSchema)]
        }
    }

    public init(options: Options, feed: FeedSetup) throws {
        switch options.source {
        case .deliveries:
            try Self.refuse(options.params != nil, "params", for: .deliveries)
            try Self.refuse(options.top != nil, "top", for: .deliveries)
            try Self.refuse(options.imageTemplate != nil, "image_template", for: .deliveries)
            try Self.refuse(options.noRepeats != nil, "no_repeats", for: .deliveries)
            let limit = try Self.check(options.limit, "limit", default: 20, within: 1...1000)
            let maxPages = try Self.check(options.maxPages, "max_pages", default: 50, within: 1...10_000)
            plan = .deliveries(try DeliveryPaging(location: options.url, limit: limit, maxPages: maxPages))
        case .flights:
            try Self.refuse(options.limit != nil, "limit", for: .flights, hint: " (put the API's limit in params)")
            try Self.refuse(options.maxPages != nil, "max_pages", for: .flights)
            plan = .flights(
                FlightSearch(
                    url: options.url, params: options.params?.entries ?? [],
                    top: try Self.check(options.top, "top", default: 5, within: 1...1000),
                    imageTemplate: try ImageTemplate(options.imageTemplate ?? ImageTemplate.kiwi),
                    noRepeats: options.noRepeats ?? false))
        }
    }

    public func run(_ pass: FeedPass) async throws {
        switch plan {
        case .deliveries(let paging): try await DeliveryFeed(paging: paging).run(pass)
        case .flights(let search): try await search.run(pass)
        }
    }

    private static func refuse(_ present: Bool, _ key: String, for source: Source, hint: String = "") throws {
        guard present else { return }
        throw OptionError("\(key) does not apply to source: \(source.rawValue)\(hint)", at: [key])
    }

    private static func check(_ value: Int?, _ key: String, default fallback: Int, within range: ClosedRange<Int>)
        throws -> Int
    {
        let value = value ?? fallback
        guard range.contains(value) else {
            throw OptionError(
                "\(key) must be between \(range.lowerBound) and \(range.upperBound), not \(value)", at: [key])
        }
        return value
    }
}
