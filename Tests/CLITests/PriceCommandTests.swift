import FeedTestSupport
import Foundation
import Testing

@Suite("feedwork price")
struct PriceCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("price")
        try CurrencyFixtureFiles.copy(into: directory)
        try write(
            "feeds.yaml",
            """
            feeds:
              - name: fx
                adapter: currency
                currencies: { url: list.json }
                rates: { url: live.json, max_age: 60m }
            """)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// Quotes as of now, so they are within max_age.
    func writeFreshQuotes(eur: String = "1.5") throws {
        let now = Int(Date().timeIntervalSince1970)
        try write(
            "live.json",
            #"{"success":true,"timestamp":\#(now),"source":"USD","quotes":{"USDEUR":\#(eur),"USDJPY":107.7575,"USDBHD":0.377045}}"#
        )
    }

    func price(_ arguments: [String]) async throws -> FeedworkProcess.Result {
        try await FeedworkProcess.run(["price"] + arguments, in: directory)
    }

    func runFeeds() async throws {
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func pricesTheBasketInEurosWithTheRateAndItsTime() async throws {
        try writeFreshQuotes()
        try await runFeeds()
        let result = try await price(["milk", "eggs=2", "--currency", "EUR"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "a fresh rate gives no warning")
        #expect(result.stdout.contains("at 1 USD = 1.5 EUR (as of "))
        #expect(result.stdout.contains("feed fx"))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Milk") && $0.hasSuffix("1.95") })
        #expect(lines.contains { $0.hasPrefix("Eggs") && $0.hasSuffix("6.30") })
        #expect(lines.contains { $0.hasPrefix("total") && $0.hasSuffix("8.25") })
    }

    @Test func jsonGivesExactAndRoundedAmountsAsStrings() async throws {
        try writeFreshQuotes()
        try await runFeeds()
        let result = try await price(["milk", "eggs=2", "peas", "beans=3", "--currency", "jpy", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["currency"] as? String == "JPY")
        #expect(document["exponent"] as? Int == 0)
        #expect(document["total_exact"] as? String == "931.0248")
        #expect(document["total"] as? String == "931")
        let rate = try #require(document["rate"] as? [String: Any])
        #expect(rate["rate"] as? String == "107.7575")
        #expect(rate["stale"] as? Bool == false)
        let items = try #require(document["items"] as? [[String: Any]])
        #expect(items.map { $0["good"] as? String } == ["Milk", "Eggs", "Peas", "Beans"])
        #expect(items.first?["amount"] as? String == "140.08475")
    }

    @Test func aBahrainiDinarTotalHasThreeDecimals() async throws {
        try writeFreshQuotes()
        try await runFeeds()
        let result = try await price(["milk", "eggs=2", "--currency", "BHD", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["total"] as? String == "2.074")
    }

    @Test func aRateOlderThanMaxAgeIsUsedWithAWarning() async throws {
        try await runFeeds()
        let result = try await price(["milk", "--currency", "EUR"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("total"))
        #expect(
            result.stderr.contains(
                "warning: the USD->EUR rate is as of 2019-09-11T16:08:06Z, stored by feed fx from live.json, a file "
                    + "whose rates are as old as they are (older than the rates max_age of 1h); for current rates "
                    + "point the feed's rates.url at the live API (http://apilayer.net/api/live)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("run `feedwork run`"), "a run cannot make a file's rates newer")
    }

    @Test func anOldRateFromAnAPISaysWhichRunFetchesANewerOne() async throws {
        let live = try Data(contentsOf: directory.appendingPathComponent("live.json"))
        let list = try Data(contentsOf: directory.appendingPathComponent("list.json"))
        let server = try LoopbackServer { request in .data(request.path == "/live" ? live : list) }
        try write(
            "feeds.yaml",
            """
            feeds:
              - name: fx
                adapter: currency
                access_key: ${FX_KEY}
                currencies: { url: "\(server.url("/list"))" }
                rates: { url: "\(server.url("/live"))", max_age: 60m }
            """)
        let run = try await FeedworkProcess.run(["run"], in: directory, environment: ["FX_KEY": "key"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try await price(["milk", "--currency", "EUR"])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "warning: the USD->EUR rate is as of 2019-09-11T16:08:06Z, stored by feed fx from "
                    + "\(server.url("/live")), older than the rates max_age of 1h; `feedwork run --feed fx` fetches "
                    + "newer rates"), "\(result.stderr)")
    }

    @Test func theLatestRateIsUsedAfterAnotherRun() async throws {
        try await runFeeds()
        try writeFreshQuotes(eur: "2")
        try await runFeeds()
        let result = try await price(["milk", "--currency", "EUR", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["total"] as? String == "2.60")
    }

    @Test func unknownGoodsExitTwoListingTheKnownOnes() async throws {
        let result = try await price(["milk", "kale", "--currency", "USD"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown good 'kale'; known goods: Peas, Eggs, Milk, Beans"))
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownCurrencyExitsOne() async throws {
        try await runFeeds()
        let result = try await price(["milk", "--currency", "XYZ"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown currency 'XYZ'"))
    }

    @Test func aCurrencyWithNoStoredRateExitsOne() async throws {
        try await runFeeds()
        let result = try await price(["milk", "--currency", "NOK"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no stored USD->NOK rate"))
    }

    @Test func pricingBeforeAnyRunExitsOneAndCreatesNoStore() async throws {
        let result = try await price(["milk", "--currency", "EUR"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("run `feedwork run` first"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
    }

    @Test func usdNeedsNoRateNorStore() async throws {
        let result = try await price(["milk", "eggs=2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no conversion"))
        #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("total") && $0.hasSuffix("5.50") })
    }

    @Test func aBasketFileAndACatalogFileAreRead() async throws {
        try write("basket.txt", "# shop\ntea=2\nrice\n")
        try write("goods.yaml", "Tea: { price: 3.455, unit: box }\nRice: { price: 1.20, unit: kg }\n")
        let result = try await price(["tea", "--basket", "basket.txt", "--catalog", "goods.yaml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["total_exact"] as? String == "11.565")
        #expect(document["total"] as? String == "11.57")
    }

    @Test func aBadCatalogExitsTwoWithLineAndColumn() async throws {
        try write("goods.yaml", "Tea: { price: free }\n")
        let result = try await price(["tea", "--catalog", "goods.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("goods.yaml:1:15: error:"), "\(result.stderr)")
    }

    @Test func aBadQuantityExitsTwo() async throws {
        let result = try await price(["eggs=half"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'eggs=half': the quantity must be a whole number"))
    }
}
