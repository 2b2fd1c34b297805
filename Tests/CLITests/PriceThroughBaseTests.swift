import Foundation
import Testing

/// `feedwork price` with only the ECB's rates stored: USD prices are converted through the EUR
/// base, exactly, and the output says through what and as of which day.
@Suite("feedwork price through a base currency")
struct PriceThroughBaseTests {
    let directory: URL

    init() async throws {
        directory = try FeedworkProcess.makeFolder("price-ecb")
        try FileManager.default.copyItem(
            at: CurrencyFixtureFiles.folder.appendingPathComponent("ecb-daily.xml"),
            to: directory.appendingPathComponent("ecb.xml"))
        try Data(
            """
            feeds:
              - name: ecb
                adapter: currency
                provider: ecb
                rates: { url: ecb.xml }
            """.utf8
        ).write(to: directory.appendingPathComponent("feeds.yaml"))
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func aUSDBasketIsPricedInPoundsThroughTheEuroAndSaysWhichDaysRatesItUsed() async throws {
        let result = try await FeedworkProcess.run(["price", "milk", "eggs=2", "--currency", "GBP"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "at 1 USD = 0.821836 GBP through EUR: 1 EUR = 1.0556 USD = 0.86753 GBP (as of 2017-03-08T00:00:00Z, feed ecb)"
            ),
            "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // (1.30 + 2 × 2.10) × 0.86753 / 1.0556 = 4.5200...
        #expect(lines.contains { $0.hasPrefix("total") && $0.hasSuffix("4.52") }, "\(result.stdout)")
        // The recorded file's rates are from 2017: only the bank's live file has newer ones.
        #expect(
            result.stderr.contains(
                "stored by feed ecb from ecb.xml, a file whose rates are as old as they are (older than the rates "
                    + "max_age of 1h); for current rates point the feed's rates.url at the live API "
                    + "(https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml)"), "\(result.stderr)")
    }

    @Test func jsonNamesTheBaseAndBothStoredRates() async throws {
        let result = try await FeedworkProcess.run(["price", "milk", "--currency", "EUR", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rate = try #require(document["rate"] as? [String: Any])
        let via = try #require(rate["via"] as? [String: Any])
        #expect(via["base"] as? String == "EUR")
        #expect(via["source_rate"] as? String == "1.0556")
        #expect(via["target_rate"] as? String == "1")
        // 1.30 / 1.0556 = 1.2315...
        #expect(document["total"] as? String == "1.23")
    }
}
