import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Stored rates")
struct StoredRatesTests {
    @Test func theLatestQuoteIsTheOneWithTheGreatestAsOf() async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live-later.json"))
        _ = try await harness.run()
        try harness.write("live.json", try CurrencyHarness.fixture("live.json"))
        _ = try await harness.run()
        let quote = try #require(try StoredRates(store: harness.store()).latest(from: "USD", to: "EUR"))
        #expect(DecimalRounding.plain(quote.rate) == "0.9", "the later quote, though stored first")
        #expect(quote.asOf == "2019-09-11T17:08:06Z")
        #expect(quote.feed == "fx")
    }

    @Test func anUnstoredPairHasNoQuoteAndUnknownCodesAreTold() async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live.json"))
        _ = try await harness.run()
        let rates = StoredRates(store: try harness.store())
        #expect(try rates.latest(from: "USD", to: "NOK") == nil)
        #expect(try rates.knows("EUR") == true)
        #expect(try rates.knows("XYZ") == false)
    }

    @Test func anEmptyStoreHasNoQuoteAndNoList() throws {
        let harness = try CurrencyHarness.files(list: Data(), live: Data())
        let rates = StoredRates(store: try harness.store())
        #expect(try rates.latest(from: "USD", to: "EUR") == nil)
        #expect(try rates.knows("EUR") == nil)
    }
}
