import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedPricing
import FeedTestSupport
import Foundation
import Testing

@Suite("Currency adapter")
struct CurrencyAdapterTests {
    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realListAndLivePayloadsLandWithExactValues() async throws {
        let harness = try CurrencyHarness.files(
            list: try RealFixtures.data("currency/currencylayer-list.json"),
            live: try RealFixtures.data("currency/currencylayer-live.json"))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok, "\(feed.error ?? "")")
        let list = try JSONSerialization.jsonObject(with: try RealFixtures.data("currency/currencylayer-list.json"))
        let expected = try #require((list as? [String: Any])?["currencies"] as? [String: String])
        #expect(try await harness.count("currency") == expected.count)
        #expect(feed.counts.inserted == expected.count + 2)
        let crc = try await harness.rows("SELECT name FROM currency WHERE code = 'CRC'").first?["name"]
        #expect(crc == .text("Costa Rican Colón"), "\\u escapes are decoded")
        await #expect(
            try harness.rateLines() == ["AED 3.673103 2019-09-11T16:08:06Z", "AMD 476.340291 2019-09-11T16:08:06Z"])
        let sources = try await harness.rows("SELECT DISTINCT source FROM exchange_rate").map { $0["source"] }
        #expect(sources == [.text("USD")])
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realErrorBodyWithStatus200FailsTheFeedWithTheAPIsCodeTypeAndInfoAndKeepsTheStore() async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live.json"))
        _ = try await harness.run()
        let before = try await harness.snapshot()
        try harness.write("live.json", try RealFixtures.data("currency/currencylayer-error-101.json"))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        let error = try #require(feed.error)
        #expect(error.contains("error 101 (missing_access_key): You have not supplied an API Access Key."))
        #expect(error.contains("live.json"))
        await #expect(try harness.snapshot() == before)
    }

    @Test(arguments: HarnessStore.available)
    func quotesKeepTheirExactTextWhetherIntegersOrExponentNotation(driver: HarnessStore) async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live-notation.json"),
            driver: driver)
        _ = try await harness.run()
        await #expect(
            try harness.rateLines() == [
                "BTC 0.000105 2019-09-11T16:08:06Z", "EUR 0.908404 2019-09-11T16:08:06Z",
                "GBP 0.8101650000 2019-09-11T16:08:06Z", "JPY 108 2019-09-11T16:08:06Z",
                "VEF 248487600000 2019-09-11T16:08:06Z",
            ])
    }

    @Test(arguments: HarnessStore.available)
    func ratesAreKeptAsHistoryOneRowPerQuoteTime(driver: HarnessStore) async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live.json"),
            driver: driver)
        _ = try await harness.run()
        let again = try await harness.run()
        #expect(again.feeds.first?.counts.unchanged == 10, "5 currencies and 5 rates, all seen before")
        #expect(again.feeds.first?.counts.inserted == 0)
        try harness.write("live.json", try CurrencyHarness.fixture("live-later.json"))
        let later = try await harness.run()
        #expect(later.feeds.first?.counts.inserted == 5)
        let euro = try await harness.rateLines().filter { $0.hasPrefix("EUR") }
        #expect(euro == ["EUR 1.5 2019-09-11T16:08:06Z", "EUR 0.9 2019-09-11T17:08:06Z"])
    }

    @Test(arguments: HarnessStore.available)
    func ratesCurrenciesKeepsOnlyTheNamedTargetsFromAFile(driver: HarnessStore) async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live.json"),
            extra: ", currencies: [eur, JPY, NOK]", driver: driver)
        let report = try await harness.run()
        await #expect(try harness.rateLines().map { String($0.prefix(3)) } == ["EUR", "JPY"])
        #expect(report.feeds.first?.notes.contains("no quote for NOK") == true)
    }

    @Test(arguments: HarnessStore.available)
    func theKeyAndTheFilterAreSentAsQueryParametersOverHTTP(driver: HarnessStore) async throws {
        let list = try CurrencyHarness.fixture("list.json")
        let live = try CurrencyHarness.fixture("live.json")
        let server = try CurrencyHarness.api(list: list) { _ in live }
        let harness = try CurrencyHarness.server(server, rates: ", currencies: [EUR, GBP]", driver: driver)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok, "\(report.feeds.first?.error ?? "")")
        let requests = server.requests
        #expect(requests.map(\.path) == ["/api/list", "/api/live"])
        #expect(requests.allSatisfy { $0.query("access_key") == "sekret-123" })
        #expect(requests.last?.query("currencies") == "EUR,GBP")
        #expect(try await harness.count("exchange_rate") == 2)
    }

    @Test(arguments: HarnessStore.available)
    func ratesNamingCurrenciesAreNotForeignKeys(driver: HarnessStore) async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live.json"),
            driver: driver)
        _ = try await harness.run()
        #expect(try await harness.count("exchange_rate") == 5)
        #expect(try await harness.foreignKeys(of: "exchange_rate").isEmpty, "a rate may name a currency the list lacks")
    }

    @Test(arguments: HarnessStore.available)
    func aSecondPassInsideMaxAgeMakesNoRequest(driver: HarnessStore) async throws {
        let list = try CurrencyHarness.fixture("list.json")
        let live = try CurrencyHarness.fixture("live.json")
        let server = try CurrencyHarness.api(list: list) { _ in live }
        let harness = try CurrencyHarness.server(server, driver: driver)
        let first = try await harness.run()
        #expect(first.feeds.first?.status == .ok)
        #expect(server.requestCount == 2)
        let second = try await harness.run()
        let feed = try #require(second.feeds.first)
        #expect(feed.status == .ok)
        #expect(server.requestCount == 2, "both responses are younger than their max_age")
        #expect(feed.counts.unchanged == 10)
        #expect(try await harness.count("exchange_rate") == 5)
    }

    @Test(arguments: HarnessStore.available)
    func ratesAreRequestedAgainOnceTheirMaxAgeHasPassed(driver: HarnessStore) async throws {
        let list = try CurrencyHarness.fixture("list.json")
        let live = try CurrencyHarness.fixture("live.json")
        let server = try CurrencyHarness.api(list: list) { _ in live }
        let harness = try CurrencyHarness.server(server, rates: ", max_age: 0s", driver: driver)
        _ = try await harness.run()
        _ = try await harness.run()
        #expect(server.requests.map(\.path) == ["/api/list", "/api/live", "/api/live"])
    }

    @Test func anHTTPURLWithoutAKeyIsAConfigErrorPointingAtTheURL() throws {
        let harness = try FeedHarness(
            registry: CurrencyHarness.registry,
            yaml: """
                feeds:
                  - name: fx
                    adapter: currency
                    currencies: { url: list.json }
                    rates: { url: "https://api.example/live" }
                """)
        let error = try #require(throws: ConfigError.self) { try harness.config() }
        let problem = try #require(error.problems.first)
        #expect(problem.message.contains("access_key is required to read https://api.example/live"))
        #expect(problem.location.line == 5)
    }

    @Test func theDefaultURLsAreLiveAndNeedAKey() throws {
        let harness = try FeedHarness(
            registry: CurrencyHarness.registry, yaml: "feeds:\n  - { name: fx, adapter: currency }\n")
        let error = try #require(throws: ConfigError.self) { try harness.config() }
        #expect(error.description.contains("access_key is required to read http://apilayer.net/api/list"))
    }

    @Test func fixtureFilesNeedNoKey() throws {
        let harness = try CurrencyHarness.files(list: Data(), live: Data())
        let adapter = try #require(try harness.config().feeds.first?.adapter as? CurrencyAdapter)
        #expect(adapter.listMaxAge == .days(1))
        #expect(adapter.ratesMaxAge == .minutes(60))
    }

    @Test func aTargetThatIsNotACurrencyCodeIsAConfigError() throws {
        let harness = try CurrencyHarness.files(list: Data(), live: Data(), extra: ", currencies: [EUR, euro]")
        let error = try #require(throws: ConfigError.self) { try harness.config() }
        #expect(error.description.contains("rates.currencies[1]: 'euro' is not a three-letter currency code"))
    }
}
