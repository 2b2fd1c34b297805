import ArgumentParser
import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedPricing
import Foundation

/// `feedwork price`: a basket of goods priced in a currency with the latest stored rate.
struct PriceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price",
        abstract: "Price a basket of goods in a currency, using the latest exchange rate in the store.",
        discussion: """
            Goods are priced in USD by a catalog (built in: Peas 0.95 per bag, Eggs 2.10 per dozen, \
            Milk 1.30 per bottle, Beans 0.73 per can; or --catalog goods.yaml). The rate is the latest \
            USD->CURRENCY rate that a `currency` feed stored (run `feedwork run` first). Line amounts \
            are exact products; the total is their exact sum rounded once to the currency's minor unit \
            (ISO 4217: 2 decimals for EUR, 0 for JPY, 3 for BHD), half away from zero. Line amounts are \
            shown rounded, so they may not add up exactly to the total.

            Exit status: 0 when priced (a rate older than the feed's rates max_age prints a warning), \
            1 when no rate is stored or the currency is unknown, 2 for unknown goods or bad arguments.

            Examples:
              feedwork price milk eggs=2 --currency EUR
              feedwork price --basket basket.txt --currency JPY --json
              feedwork price peas beans=3 --catalog goods.yaml
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: "Goods to buy: a name, or name=quantity (e.g. milk eggs=2).")
    var items: [String] = []

    @Option(help: "A file with one item per line (name or name=quantity; # starts a comment).")
    var basket: String?

    @Option(help: "The ISO 4217 code to price in.")
    var currency: String = GoodsCatalog.currency

    @Option(help: "A YAML catalog of goods: name: { price: 0.95, unit: bag }, prices in USD.")
    var catalog: String?

    @Flag(help: "Print the priced basket as JSON on stdout.")
    var json = false

    func run() async throws {
        guard let code = CurrencyCode.normalized(currency) else {
            throw usage("--currency: '\(currency)' is not a three-letter ISO 4217 code (e.g. EUR)")
        }
        let catalog = try loadCatalog()
        let basket = try loadBasket()
        if let unknown = BasketQuote.unknownGoods(basket, in: catalog) { throw usage(unknown.description) }
        let (quote, maxAge, source) = try await quote(for: code)
        let priced: PricedBasket
        let stale: Bool
        do {
            (priced, stale) = try BasketQuote.price(basket, catalog: catalog, quote: quote, maxAge: maxAge)
        } catch {
            throw usage(error.description)
        }
        if stale {
            Console.error(Self.staleWarning(quote, maxAge: maxAge, source: source))
        }
        Console.print(json ? PriceReport.json(priced, stale: stale, maxAge: maxAge) : PriceReport.text(priced))
    }

    /// The warning for a rate older than `maxAge`: its date, the feed and URL it came from,
    /// and what would bring a newer one (a file holds the rates it holds: only pointing the feed
    /// at the live API does).
    static func staleWarning(_ quote: ExchangeQuote, maxAge: FeedDuration, source: CurrencyAdapter?) -> String {
        let rate = "the \(quote.source)->\(quote.target) rate is as of \(quote.asOf)"
        let stale = "older than the rates max_age of \(maxAge)"
        guard let feed = quote.feed else { return "warning: \(rate), \(stale)" }
        guard let ratesURL = source?.liveURL else { return "warning: \(rate) (feed \(feed)), \(stale)" }
        let origin = "\(rate), stored by feed \(feed) from \(ratesURL)"
        if FetchRequest.isRemote(ratesURL) {
            return "warning: \(origin), \(stale); `feedwork run --feed \(feed)` fetches newer rates"
        }
        return "warning: \(origin), a file whose rates are as old as they are (\(stale)); "
            + "for current rates point the feed's rates.url at the live API "
            + "(\(source?.provider == .ecb ? CurrencyAdapter.defaultECBURL : CurrencyAdapter.defaultLiveURL))"
    }

    private func usage(_ message: String) -> CommandFailure { .usage(message) }

    private func failure(_ message: String) -> CommandFailure { .failed(message) }

    private func loadCatalog() throws -> GoodsCatalog {
        guard let path = catalog else { return .standard }
        do {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else {
                throw usage("--catalog: cannot read \(path) as UTF-8 text")
            }
            let entries = try NodeDecoder(file: path).decode(OrderedMapping<GoodsCatalog.Entry>.self, yaml: text)
            do {
                return try GoodsCatalog(entries: entries)
            } catch {
                throw ConfigError(error.message, at: SourceLocation(file: path, line: 1, column: 1))
            }
        }
    }

    private func loadBasket() throws -> Basket {
        var basket: Basket
        do {
            basket = try Basket.parse(arguments: items)
            if let path = self.basket {
                guard let data = FileManager.default.contents(atPath: path),
                    let text = String(data: data, encoding: .utf8)
                else { throw usage("--basket: cannot read \(path) as UTF-8 text") }
                for item in try Basket.parse(file: text, named: path).items { basket.add(item) }
            }
        } catch let error as BasketError {
            throw usage(error.description)
        }
        if basket.isEmpty { throw usage(PricingError.emptyBasket.description) }
        return basket
    }

    /// The latest stored rate into `code`, with the `max_age` and the adapter of the feed that
    /// stored it (nil when the config no longer has that feed).
    private func quote(for code: String) async throws -> (ExchangeQuote, FeedDuration, CurrencyAdapter?) {
        let source = GoodsCatalog.currency
        guard code != source else { return (.identity(source), CurrencyAdapter.defaultRatesMaxAge, nil) }
        let config = try options.load(unsetVariables: .placeholder)
        guard try config.storeExists() else {
            throw failure("no stored rates: \(config.storeDescription) does not exist yet; run `feedwork run` first")
        }
        let rows = try config.readingStore()
        do {
            let adapter = { (feed: String) in config.feed(named: feed)?.adapter as? CurrencyAdapter }
            let (quote, maxAge) = try await BasketQuote.storedQuote(into: code, rows: rows) { adapter($0)?.ratesMaxAge }
            return (quote, maxAge, quote.feed.flatMap(adapter))
        } catch let missing as BasketQuote.MissingRate {
            guard case .noRate = missing else { throw failure(missing.description) }
            let feeds = config.feeds.filter { $0.adapter is CurrencyAdapter }.map(\.name)
            let hint =
                feeds.isEmpty
                ? "add a feed with adapter: currency to \(config.file) and run `feedwork run`"
                : "run `feedwork run` (currency feeds: \(feeds.joined(separator: ", "))) and check that rates.currencies includes \(code)"
            throw failure("\(missing); \(hint)")
        } catch {
            throw failure("cannot read rates from \(config.storeDescription): \(error)")
        }
    }
}
