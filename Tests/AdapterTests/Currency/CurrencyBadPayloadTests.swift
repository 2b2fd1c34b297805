import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Currency adapter: malformed payloads")
struct CurrencyBadPayloadTests {
    /// A live-quotes body that fails the feed, and what its error must say.
    struct FailingBody: Sendable, CustomTestStringConvertible {
        var file: String
        var expected: String
        var testDescription: String { file }
    }

    static let failingLiveBodies: [FailingBody] = [
        FailingBody(
            file: "error-without-type.json",
            expected: "the API reported error 104: Your monthly usage limit has been reached."),
        FailingBody(
            file: "error-invalid-key.json",
            expected: "the API reported error 101 (invalid_access_key): You have not supplied a valid API Access Key."),
        FailingBody(file: "error-without-details.json", expected: "the API reported error: no details given"),
        FailingBody(file: "empty.txt", expected: "at $:"),
        FailingBody(file: "html.html", expected: "(the body looks like HTML)"),
        FailingBody(file: "truncated.json", expected: "at $:"),
        FailingBody(file: "top-level-list.json", expected: "at $: expected an object, found a list"),
        FailingBody(file: "missing-success.json", expected: "at $.success: expected true or false, found nothing"),
        FailingBody(file: "missing-timestamp.json", expected: "at $.timestamp: missing"),
        FailingBody(file: "timestamp-string.json", expected: "at $.timestamp: expected Unix seconds, found a string"),
        FailingBody(
            file: "timestamp-fraction.json", expected: "at $.timestamp: expected Unix seconds, found 1568218086.5"),
        FailingBody(
            file: "quotes-list.json", expected: "at $.quotes: expected an object of SOURCE+TARGET to rate, found a list"
        ),
        FailingBody(
            file: "quotes-missing.json",
            expected: "at $.quotes: expected an object of SOURCE+TARGET to rate, found nothing"),
        FailingBody(
            file: "source-number.json", expected: "at $.source: expected a three-letter upper-case code, found a number"
        ),
    ]

    @Test(arguments: failingLiveBodies)
    func aMalformedLiveBodyFailsTheFeedWithItsPathAndLeavesTheStoreUnchanged(_ body: FailingBody) async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("live.json"))
        _ = try await harness.run()
        let before = try await harness.snapshot()
        try harness.write("live.json", try CurrencyHarness.fixture("bad/\(body.file)"))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        let error = try #require(feed.error)
        #expect(error.contains("feed 'fx'"))
        #expect(error.contains(body.expected), "\(error)")
        await #expect(try harness.snapshot() == before)
    }

    @Test func anErrorBodyOnTheCurrencyListFailsTheFeedToo() async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("bad/error-without-type.json"),
            live: try CurrencyHarness.fixture("live.json"))
        let report = try await harness.run()
        #expect(report.feeds.first?.error?.contains("list.json: the API reported error 104") == true)
        #expect(try await harness.tableNames(like: "exchange_rate%") == [], "the failed first pass left no table")
    }

    @Test func aCurrencyListThatIsNotAnObjectFailsWithItsPath() async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("bad/currencies-list.json"),
            live: try CurrencyHarness.fixture("live.json"))
        let report = try await harness.run()
        #expect(
            report.feeds.first?.error?.contains("at $.currencies: expected an object of code to name, found a list")
                == true)
    }

    @Test func badQuotesAreRejectedWithReasonsWhileGoodOnesLand() async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("list.json"), live: try CurrencyHarness.fixture("bad/bad-quotes.json"))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .okWithRejects)
        await #expect(try harness.rateLines() == ["AMD 476.340291 2019-09-11T16:08:06Z"])
        let rejects = try await harness.rows(
            "SELECT path, reason, raw FROM _rejects WHERE entity = 'exchange_rate' ORDER BY id")
        let reasons = rejects.map { row -> String in
            if case .text(let path)? = row["path"], case .text(let reason)? = row["reason"] {
                "\(path): \(reason)"
            } else {
                "?"
            }
        }
        #expect(
            reasons == [
                "$.quotes.USDEUR: the rate must be a number, found a string",
                "$.quotes.USDGBP: the rate 1e99999 is out of range",
                "$.quotes.USDJPY: the rate 1e400 is out of range (more than 38 digits or beyond 1e±30)",
                "$.quotes.USDCHF: the rate must be more than 0, found -0.99",
                "$.quotes.USDAED: the rate must be more than 0, found 0",
                "$.quotes.EURGBP: 'EURGBP' is not USD followed by a three-letter currency code",
                "$.quotes.USDX: 'USDX' is not USD followed by a three-letter currency code",
                "$.quotes.USDBHD: the rate must be a number, found null",
            ])
        #expect(rejects.first?["raw"] == .text(#"{"USDEUR":"0.9"}"#))
    }

    @Test func badCurrencyEntriesAreRejectedWhileGoodOnesLand() async throws {
        let harness = try CurrencyHarness.files(
            list: try CurrencyHarness.fixture("bad/bad-currencies.json"), live: try CurrencyHarness.fixture("live.json")
        )
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .okWithRejects)
        let codes = try await harness.rows("SELECT code FROM currency ORDER BY code").map { $0["code"] }
        #expect(codes == [.text("BHD"), .text("EUR")])
        let reasons = try await harness.rows("SELECT path, reason FROM _rejects WHERE entity = 'currency' ORDER BY id")
            .map {
                "\($0["path"] ?? .null): \($0["reason"] ?? .null)"
            }
        #expect(
            reasons == [
                "$.currencies.eur: 'eur' is not a three-letter upper-case code",
                "$.currencies.EURO: 'EURO' is not a three-letter upper-case code",
                "$.currencies.GBP: the name must be a non-empty string, found a number",
                "$.currencies.JPY: the name must be a non-empty string, found a string",
            ])
    }

    @Test func anHTMLPageWithStatus200FromTheServerFailsTheFeedAndKeepsNoCacheEntry() async throws {
        let list = try CurrencyHarness.fixture("list.json")
        let html = try CurrencyHarness.fixture("bad/html.html")
        let server = try CurrencyHarness.api(list: list) { _ in html }
        let harness = try CurrencyHarness.server(server)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .failed)
        #expect(report.feeds.first?.error?.contains("(the body looks like HTML)") == true)
        #expect(try await harness.count("_http_cache") == 0, "a failed pass caches nothing, so the next run asks again")
        _ = try await harness.run()
        #expect(server.requestCount == 4)
    }
}
