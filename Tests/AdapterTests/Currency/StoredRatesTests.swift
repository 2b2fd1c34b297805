import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedPricing
import FeedTestSupport
import Foundation
import Testing

@Suite("Stored rates")
struct StoredRatesTests {
    @Test(arguments: HarnessStore.available)
    func theLatestQuoteIsTheOneWithTheGreatestAsOf(driver: HarnessStore) async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live-later.json"),
            driver: driver)
        _ = try await harness.run()
        try harness.write("live.json", try CurrencyHarness.fixture("live.json"))
        _ = try await harness.run()
        let quote = try await #require(try StoredRates(store: harness.store()).latest(from: "USD", to: "EUR"))
        #expect(DecimalRounding.plain(quote.rate) == "0.9", "the later quote, though stored first")
        #expect(quote.asOf == "2019-09-11T17:08:06Z")
        #expect(quote.feed == "fx")
    }

    @Test(arguments: HarnessStore.available)
    func anUnstoredPairHasNoQuoteAndUnknownCodesAreTold(driver: HarnessStore) async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live.json"),
            driver: driver)
        _ = try await harness.run()
        let rates = StoredRates(store: try harness.store())
        #expect(try await rates.latest(from: "USD", to: "NOK") == nil)
        #expect(try await rates.knows("EUR") == true)
        #expect(try await rates.knows("XYZ") == false)
    }

    @Test(arguments: HarnessStore.available)
    func anEmptyStoreHasNoQuoteAndNoList(driver: HarnessStore) async throws {
        let harness = try CurrencyHarness.files(list: Data(), live: Data(), driver: driver)
        _ = try await harness.run()  // fails on the empty responses, leaving a store without rates
        let rates = StoredRates(store: try harness.store())
        #expect(try await rates.latest(from: "USD", to: "EUR") == nil)
        #expect(try await rates.knows("EUR") == nil)
    }
}

/// Rates through a base currency: with only the ECB's rates (every one from EUR), a USD price
/// converts to GBP through EUR, exactly, dividing once.
@Suite("Stored rates through a base currency")
struct CrossRateTests {
    /// A harness that ran the ECB's daily rates into `driver`'s store; a test keeps it while it
    /// reads, as the store goes with it.
    static func ecbHarness(_ driver: HarnessStore) async throws -> FeedHarness {
        let harness = try ECBRatesTests.harness(try Data(contentsOf: ECBRatesTests.daily), driver: driver)
        _ = try await harness.run()
        return harness
    }

    @Test(arguments: HarnessStore.available)
    func aPairNoFeedQuotesGoesThroughTheBaseThatQuotesBoth(driver: HarnessStore) async throws {
        let harness = try await Self.ecbHarness(driver)
        let rates = StoredRates(store: try harness.store())
        let quote = try #require(try await rates.quote(from: "USD", to: "GBP"))
        #expect(
            quote.cross
                == ExchangeQuote.Cross(
                    base: "EUR", sourceRate: Decimal(string: "1.0556")!, targetRate: Decimal(string: "0.86753")!))
        #expect(quote.asOf == "2017-03-08T00:00:00Z")
        #expect(quote.feed == "ecb")
    }

    @Test(arguments: HarnessStore.available)
    func theBaseItselfIsReachedThroughItsOwnRate(driver: HarnessStore) async throws {
        let harness = try await Self.ecbHarness(driver)
        let rates = StoredRates(store: try harness.store())
        let quote = try #require(try await rates.quote(from: "USD", to: "EUR"))
        #expect(quote.cross?.targetRate == 1)
        #expect(quote.cross?.sourceRate == Decimal(string: "1.0556"))
    }

    @Test(arguments: HarnessStore.available)
    func aStoredPairIsUsedAsItIs(driver: HarnessStore) async throws {
        let harness = try await Self.ecbHarness(driver)
        let rates = StoredRates(store: try harness.store())
        let quote = try #require(try await rates.quote(from: "EUR", to: "GBP"))
        #expect(quote.cross == nil)
        #expect(DecimalRounding.plain(quote.rate) == "0.86753")
    }

    @Test(arguments: HarnessStore.available)
    func aCurrencyNoBaseQuotesHasNoQuote(driver: HarnessStore) async throws {
        let harness = try await Self.ecbHarness(driver)
        let rates = StoredRates(store: try harness.store())
        #expect(try await rates.quote(from: "USD", to: "XAU") == nil)
    }

    @Test func aBasketPricedThroughTheBaseDividesOnceAndRoundsOnce() throws {
        let cross = ExchangeQuote.Cross(
            base: "EUR", sourceRate: Decimal(string: "1.0556")!, targetRate: Decimal(string: "0.86753")!)
        let quote = ExchangeQuote(source: "USD", target: "GBP", cross: cross, asOf: "2017-03-08T00:00:00Z")
        let basket = try Basket.parse(arguments: ["milk", "eggs=2"])
        let priced = try BasketPricer.price(basket, catalog: GoodsCatalog.standard, quote: quote)
        // (1.30 + 2 × 2.10) USD × 0.86753 / 1.0556 = 4.520090...
        #expect(
            priced.exactTotal == Decimal(string: "5.50")! * Decimal(string: "0.86753")! / Decimal(string: "1.0556")!)
        #expect(priced.totalText == "4.52")
    }
}
