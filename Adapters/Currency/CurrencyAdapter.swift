import FeedKit
import FeedPricing

/// Currency names and live exchange rates from a currencylayer-style API, or the European
/// Central Bank's euro reference rates.
///
/// With `provider: currencylayer` (the default), two requests per pass: the currency list
/// (`currency`: code, name) and the live quotes (`exchange_rate`: source, target, rate, as_of).
/// With `provider: ecb`, one request for the bank's XML file (no key; every rate from EUR; no
/// currency list). Rates are kept as history, one row per source, target and `as_of`, so an
/// earlier conversion can always be reproduced.
///
/// ```yaml
/// - name: currencylayer
///   adapter: currency
///   access_key: ${CURRENCYLAYER_KEY}
///   currencies: { url: http://apilayer.net/api/list, max_age: 1d }
///   rates: { url: http://apilayer.net/api/live, max_age: 60m, currencies: [EUR, GBP, JPY] }
/// ```
///
/// The key is sent as the `access_key` query parameter of http(s) URLs only; fixture files need
/// none. Give it as `${VAR}` so it stays in the environment: values from the environment are
/// redacted from every URL, message and report the engine produces.
public struct CurrencyAdapter: FeedAdapter {
    /// One endpoint: where it is and how long its last response stays good.
    public struct Endpoint: Decodable, Sendable {
        /// An http(s) URL, a `file://` URL or a path relative to feeds.yaml.
        public var url: String?
        /// Within this age the cached response is used and no request is made.
        public var maxAge: FeedDuration?

        enum CodingKeys: String, CodingKey {
            case url
            case maxAge = "max_age"
        }
    }

    /// The live-quotes endpoint, with an optional list of target currencies.
    public struct RatesEndpoint: Decodable, Sendable {
        public var url: String?
        public var maxAge: FeedDuration?
        /// Only these targets are asked for (`currencies=EUR,GBP`) and kept.
        public var currencies: [String]?

        enum CodingKeys: String, CodingKey {
            case url, currencies
            case maxAge = "max_age"
        }
    }

    public struct Options: Decodable, Sendable {
        /// `currencylayer` (the default) or `ecb`.
        public var provider: String?
        /// The API key; required when a currencylayer URL is http(s).
        public var accessKey: String?
        public var currencies: Endpoint?
        public var rates: RatesEndpoint?

        enum CodingKeys: String, CodingKey {
            case provider, currencies, rates
            case accessKey = "access_key"
        }
    }

    /// Where the rates come from.
    public enum Provider: String, Sendable, CaseIterable {
        /// A currencylayer-style JSON API: a currency list and live quotes from USD, with a key.
        case currencylayer
        /// The European Central Bank's daily XML file: rates from EUR, no key, no currency list.
        case ecb
    }

    public static let defaultECBURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
    public static let defaultListURL = "http://apilayer.net/api/list"
    public static let defaultLiveURL = "http://apilayer.net/api/live"
    public static let defaultListMaxAge = FeedDuration.days(1)
    public static let defaultRatesMaxAge = CurrencyEntities.defaultRatesMaxAge

    /// The currency list (``CurrencyEntities/currency``), which pricing reads too.
    public static let currencySchema = CurrencyEntities.currency

    /// The rates, kept as history (``CurrencyEntities/rate``), which pricing reads too.
    public static let rateSchema = CurrencyEntities.rate

    public static let description = AdapterDescription(
        name: "currency",
        summary:
            "Currency names and live exchange rates (currencylayer API, or the ECB's euro reference rates), rates kept as history.",
        options: [
            OptionHelp(
                "provider", "string", "currencylayer, or ecb (the European Central Bank's XML)",
                default: "currencylayer"),
            OptionHelp(
                "access_key", "string", "API key, e.g. ${CURRENCYLAYER_KEY}; required for http(s) URLs", default: "none"
            ),
            OptionHelp("currencies.url", "string", "the currency list", default: defaultListURL),
            OptionHelp("currencies.max_age", "duration", "no request within this age of the last list", default: "1d"),
            OptionHelp("rates.url", "string", "the live quotes (ecb: \(defaultECBURL))", default: defaultLiveURL),
            OptionHelp("rates.max_age", "duration", "no request within this age of the last quotes", default: "60m"),
            OptionHelp("rates.currencies", "list", "only these target currencies, e.g. [EUR, GBP]", default: "all"),
        ],
        entities: [currencySchema, rateSchema])

    /// Where the currency list is read from.
    public let listURL: String
    /// Where the live quotes are read from.
    public let liveURL: String
    public let listMaxAge: FeedDuration
    /// How long a rate stays current; pricing warns about older rates.
    public let ratesMaxAge: FeedDuration
    /// Upper-cased target codes to keep, or `nil` for all.
    public let targets: [String]?
    public let provider: Provider
    let accessKey: String?

    public init(options: Options, feed: FeedSetup) throws {
        guard let provider = Provider(rawValue: options.provider ?? Provider.currencylayer.rawValue) else {
            let names = Provider.allCases.map(\.rawValue).joined(separator: " or ")
            throw OptionError("provider must be \(names), not '\(options.provider ?? "")'", at: ["provider"])
        }
        self.provider = provider
        if provider == .ecb {
            if options.currencies != nil {
                throw OptionError(
                    "the ECB publishes no currency list: leave currencies out (its rates name their currencies)",
                    at: ["currencies"])
            }
            if options.accessKey != nil {
                throw OptionError("the ECB's rates need no key: leave access_key out", at: ["access_key"])
            }
        }
        listURL = options.currencies?.url ?? Self.defaultListURL
        liveURL = options.rates?.url ?? (provider == .ecb ? Self.defaultECBURL : Self.defaultLiveURL)
        listMaxAge = options.currencies?.maxAge ?? Self.defaultListMaxAge
        ratesMaxAge = options.rates?.maxAge ?? Self.defaultRatesMaxAge
        if let codes = options.rates?.currencies {
            var targets: [String] = []
            for (index, code) in codes.enumerated() {
                guard let valid = CurrencyCode.normalized(code) else {
                    throw OptionError(
                        "rates.currencies[\(index)]: '\(code)' is not a three-letter currency code",
                        at: ["rates", "currencies"])
                }
                targets.append(valid)
            }
            guard !targets.isEmpty else {
                throw OptionError(
                    "rates.currencies must name at least one currency, or be left out", at: ["rates", "currencies"])
            }
            self.targets = targets
        } else {
            targets = nil
        }
        let key = options.accessKey.flatMap { $0.isEmpty ? nil : $0 }
        if key == nil, provider == .currencylayer {
            if FetchRequest.isRemote(listURL) {
                throw OptionError(
                    Self.missingKey(listURL), at: options.currencies?.url == nil ? [] : ["currencies", "url"])
            }
            if FetchRequest.isRemote(liveURL) {
                throw OptionError(Self.missingKey(liveURL), at: options.rates?.url == nil ? [] : ["rates", "url"])
            }
        }
        accessKey = key
    }

    public var entities: [EntityBinding] {
        let rates = EntityBinding(Self.rateSchema, mode: .append)
        return provider == .ecb ? [rates] : [EntityBinding(Self.currencySchema), rates]
    }

    public func run(_ pass: FeedPass) async throws {
        if provider == .ecb {
            let response = try await pass.fetch(FetchRequest(url: liveURL, maxAge: ratesMaxAge))
            var rates = try ECBRates.rates(from: response, feed: pass.feed, targets: targets)
            rates.source = RecordSource(response)
            try await pass.write(rates)
            return
        }
        let list = try await pass.fetch(request(listURL, maxAge: listMaxAge))
        var currencies = try CurrencyMapping.currencies(from: list, feed: pass.feed)
        currencies.source = RecordSource(list)
        let live = try await pass.fetch(
            request(
                liveURL, extra: targets.map { [("currencies", $0.joined(separator: ","))] } ?? [], maxAge: ratesMaxAge))
        var rates = try CurrencyMapping.rates(from: live, feed: pass.feed, targets: targets)
        rates.source = RecordSource(live)
        try await pass.write(currencies)
        try await pass.write(rates)
    }

    /// The request for `url`: the key and `extra` parameters go only to http(s) URLs.
    func request(_ url: String, extra: [(String, String)] = [], maxAge: FeedDuration) -> FetchRequest {
        guard FetchRequest.isRemote(url) else { return FetchRequest(url: url, maxAge: maxAge) }
        let query = (accessKey.map { [("access_key", $0)] } ?? []) + extra
        return FetchRequest(url: url, query: query, maxAge: maxAge)
    }

    static func missingKey(_ url: String) -> String {
        "access_key is required to read \(url); set it from the environment, e.g. access_key: ${CURRENCYLAYER_KEY}"
    }
}
