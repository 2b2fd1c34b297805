import CurrencyFeed
import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// The currency adapter's `provider: ecb`: the European Central Bank's euro reference rates, an
/// XML file with the values in attributes, read exactly.
@Suite("currency adapter: the ECB's reference rates")
struct ECBRatesTests {
    static let daily = AdapterFixtures.url("Currency", "ecb-daily.xml")

    /// An `ecb` feed reading `ecb.xml` from its folder.
    static func harness(_ body: Data, extra: String = "", driver: HarnessStore = .sqlite) throws -> FeedHarness {
        try FeedHarness(
            registry: CurrencyHarness.registry,
            yaml: """
                feeds:
                  - name: ecb
                    adapter: currency
                    provider: ecb
                    rates: { url: ecb.xml\(extra) }
                """, files: ["ecb.xml": body], store: driver)
    }

    static func rates(_ harness: FeedHarness) async throws -> [String: String] {
        var rates: [String: String] = [:]
        for row in try await harness.rows("SELECT target, rate, source, as_of FROM exchange_rate") {
            guard case .text(let target)? = row["target"], case .text(let rate)? = row["rate"] else { continue }
            #expect(row["source"] == .text("EUR"))
            #expect(row["as_of"] == .text("2017-03-08T00:00:00Z"))
            rates[target] = rate
        }
        return rates
    }

    @Test(arguments: HarnessStore.available)
    func theRealDailyFileGivesEveryRateFromEuroWithItsExactText(driver: HarnessStore) async throws {
        let harness = try Self.harness(try Data(contentsOf: Self.daily), driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.inserted == 31)
        let rates = try await Self.rates(harness)
        #expect(rates.count == 31)
        #expect(rates["USD"] == "1.0556")
        #expect(rates["HUF"] == "310.70")
        #expect(rates["IDR"] == "14144.80")
        #expect(try await harness.tableNames(like: "currency") == [], "the ECB publishes no currency list")
    }

    @Test func ratesCurrenciesKeepsOnlyTheNamedTargets() async throws {
        let harness = try Self.harness(try Data(contentsOf: Self.daily), extra: ", currencies: [USD, GBP, XAU]")
        let report = try #require(try await harness.run().feeds.first)
        await #expect(try Self.rates(harness).keys.sorted() == ["GBP", "USD"])
        #expect(report.hasNote("no rate for XAU"))
    }

    @Test func aRateThatIsNotADecimalIsRejectedWithItsPath() async throws {
        let xml = """
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <Cube><Cube time='2017-03-08'><Cube currency='USD' rate='1.0556'/><Cube currency='JPY' rate='n/a'/></Cube></Cube>
            </gesmes:Envelope>
            """
        let harness = try Self.harness(Data(xml.utf8), extra: "").withRejectRatio()
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.inserted == 1)
        let rejects = try await harness.rows("SELECT reason, path FROM _rejects")
        #expect(rejects.first?["path"] == .text("Envelope/Cube/Cube[0]/Cube[1]"))
        #expect(rejects.first?["reason"] == .text(#"the rate must be a decimal number, found "n/a""#))
    }

    @Test func aResponseThatIsNotTheBanksFileFailsTheFeedNamingWhatItFound() async throws {
        let harness = try Self.harness(Data("<rates><rate/></rates>".utf8))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("the root element is 'rates', not 'Envelope'") == true, "\(report.error ?? "")")
    }

    @Test func aBodyThatIsNotXMLFailsTheFeedWithTheLineAndColumn() async throws {
        let harness = try Self.harness(Data("<Envelope>\n<Cube>\n</Envelope>".utf8))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("XML at line 3, column 1") == true, "\(report.error ?? "")")
    }

    @Test(arguments: [
        ("provider: ecb\n    currencies: { url: list.json }", "the ECB publishes no currency list"),
        ("provider: ecb\n    access_key: abc", "the ECB's rates need no key"),
        ("provider: fixer", "provider must be currencylayer or ecb, not 'fixer'"),
    ])
    func optionsThatDoNotFitTheProviderAreConfigErrors(options: String, message: String) throws {
        let harness = try FeedHarness(
            registry: CurrencyHarness.registry,
            yaml: """
                feeds:
                  - name: ecb
                    adapter: currency
                    \(options)
                """)
        #expect {
            try harness.config()
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}

extension FeedHarness {
    /// The harness with its feed allowed to reject every record, for suites that reject on purpose.
    fileprivate func withRejectRatio() throws -> FeedHarness {
        let config = try String(contentsOf: URL(fileURLWithPath: configPath), encoding: .utf8)
        try setConfig(config.replacingOccurrences(of: "provider: ecb", with: "provider: ecb\n    max_reject_ratio: 1"))
        return self
    }
}
