import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Destination adapter: flights")
struct DestinationFlightTests {
    static let registry = AdapterRegistry([DestinationAdapter.self, EarlierOffersAdapter.self])
    /// The start of every pass here: the offers' day is the pass's, and a test that read the
    /// clock itself would see another day when it runs across midnight.
    static let now = FeedHarness.fixedStart

    func flightsYAML(url: String = "flights.json", extra: String = "") -> String {
        """
        defaults: { retries: 1, backoff: 10ms }
        feeds:
          - name: flights
            adapter: destination
            source: flights
            url: "\(url)"
        \(extra)
        """
    }

    func harness(body: Data, extra: String = "") throws -> FeedHarness {
        try FeedHarness(registry: Self.registry, yaml: flightsYAML(extra: extra), files: ["flights.json": body])
    }

    func ranked(_ harness: FeedHarness) async throws -> [String] {
        try await harness.rows(
            "SELECT id FROM flight_offer WHERE offer_date = ? ORDER BY rank", [.text(Self.day(Self.now))]
        )
        .compactMap { if case .text(let id)? = $0["id"] { id } else { nil } }
    }

    /// The UTC day of `date` as yyyy-MM-dd, by Foundation's calendar.
    static func day(_ date: Date, format: String = "yyyy-MM-dd") -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realPayloadGivesTheOfferWithExactValues() async throws {
        let body = try RealFixtures.data("destination/kiwi-flights.json")
        let harness = try harness(body: body)
        let report = try await harness.run(startDate: Self.now)
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok)
        #expect(feed.counts.inserted == 1)
        let row = try #require(try await harness.rows("SELECT * FROM flight_offer").first)
        #expect(row["kind"] == nil && row["title"] == nil && row["description"] == nil, "only flight columns")
        #expect(row["id"] == .text("145c0b77477400002a5f84b1_0"))
        #expect(row["image_url"] == .text("https://images.kiwi.com/photos/600x330/budapest_hu.jpg"))
        #expect(row["latitude"] == .real(47.4369444))
        #expect(row["longitude"] == .real(19.2555556))
        #expect(row["destination_country"] == .text("Hungary"))
        #expect(row["origin_city"] == .text("Prague"))
        #expect(row["origin_city_code"] == .text("PRG"))
        #expect(row["origin_airport"] == .text("PRG"))
        #expect(row["destination_city"] == .text("Budapest"))
        #expect(row["destination_city_code"] == .text("BUD"))
        #expect(row["destination_airport"] == .text("BUD"))
        #expect(row["price"] == .integer(1200))
        #expect(row["currency"] == .text("EUR"))
        #expect(row["departure_at"] == .text("2020-01-31T07:35:00Z"))
        #expect(row["arrival_at"] == .text("2020-01-31T08:45:00Z"))
        #expect(row["duration_seconds"] == .integer(4200))
        #expect(row["duration_text"] == .text("1h 10m"))
        #expect(row["rank"] == .integer(1))
        #expect(row["offer_date"] == .text(Self.day(Self.now)))
        let deepLink = try #require(JSONParser.parse(body)["data"]?[0]?["deep_link"]?.stringValue)
        #expect(deepLink.hasPrefix("https://www.kiwi.com/deep?from=PRG&to=BUD&departure=31-01-2020"))
        #expect(row["booking_url"] == .text(deepLink))
    }

    @Test func theTopOffersAreKeptInTheAPIsOrderAndRejectsTakeNoRank() async throws {
        let harness = try harness(body: try TestFixtures.data("destination/flights-ten.json"))
        let report = try await harness.run(startDate: Self.now)
        let feed = try #require(report.feeds.first)
        #expect(feed.counts.inserted == 5)
        #expect(feed.counts.rejected == 1)
        await #expect(try ranked(harness) == ["offer_0", "offer_1", "offer_3", "offer_4", "offer_5"])
        let reject = try #require(try await harness.rows("SELECT path, reason FROM _rejects").first)
        #expect(reject["path"] == .text("$.data[2].id"))
        #expect(reject["reason"] == .text("id is missing or null"))
    }

    @Test func aShortResponseSaysWhatTopAskedForAndWhatCame() async throws {
        let harness = try harness(body: try TestFixtures.data("destination/flights-ten.json"), extra: "    top: 20")
        let feed = try #require(try await harness.run(startDate: Self.now).feeds.first)
        #expect(feed.counts.inserted == 9)
        #expect(
            feed.notes.contains("top asks for 20 offers; the response held 10 (1 rejected), so 9 kept"), "\(feed.notes)"
        )
    }

    @Test func decimalPricesAreStoredExactlyAsMinorUnits() async throws {
        let harness = try harness(body: try TestFixtures.data("destination/flights-ten.json"), extra: "    top: 2")
        _ = try await harness.run(startDate: Self.now)
        let prices = try await harness.rows("SELECT id, price, currency FROM flight_offer ORDER BY rank")
        #expect(prices.map { $0["price"] } == [.integer(1200), .integer(1999)])
        #expect(prices.allSatisfy { $0["currency"] == .text("EUR") })
    }

    @Test func aPriceFinerThanTheCurrencysMinorUnitIsRejected() async throws {
        func offer(_ id: String, price: String) -> String {
            #"{"id":"\#(id)","flyTo":"NRT","price":\#(price),"dTimeUTC":1580456100,"aTimeUTC":1580460300}"#
        }
        let body = #"{"currency":"JPY","data":[\#(offer("a", price: "1500.5")),\#(offer("b", price: "1500"))]}"#
        let harness = try harness(body: Data(body.utf8))
        let report = try await harness.run(startDate: Self.now)
        #expect(report.feeds.first?.counts.rejected == 1)
        let row = try #require(try await harness.rows("SELECT id, price, currency FROM flight_offer").first)
        #expect(row["id"] == .text("b"))
        #expect(row["price"] == .integer(1500))
        #expect(row["currency"] == .text("JPY"))
        let reason = try await harness.rows("SELECT reason FROM _rejects").first?["reason"]
        #expect(reason == .text("price 1500.5 is not a whole number of JPY minor units (0 decimals)"))
    }

    @Test func paramsAreSentInOrderWithTheirDatesRendered() async throws {
        let body = try TestFixtures.data("destination/flights-ten.json")
        let server = try LoopbackServer { _ in .data(body, headers: [("Content-Type", "application/json")]) }
        let harness = try FeedHarness(
            registry: Self.registry,
            yaml: flightsYAML(
                url: server.url("/flights"),
                extra: """
                        params:
                          flyFrom: PRG
                          dateFrom: "{{today|dd/MM/yyyy}}"
                          dateTo: "{{today+1d|dd/MM/yyyy}}"
                          limit: "30"
                          partner: picky
                    """))
        let report = try await harness.run(startDate: Self.now)
        #expect(report.feeds.first?.counts.inserted == 5)
        let request = try #require(server.requests.first)
        #expect(request.queryItems.map(\.name) == ["flyFrom", "dateFrom", "dateTo", "limit", "partner"])
        #expect(request.query("dateFrom") == Self.day(Self.now, format: "dd/MM/yyyy"))
        #expect(request.query("dateTo") == Self.day(Self.now.addingTimeInterval(86_400), format: "dd/MM/yyyy"))
        #expect(request.query("partner") == "picky")
    }

    /// A harness whose store holds offers to BUD and BER made yesterday, and that day's date.
    func harnessWithYesterdaysOffers() async throws -> (FeedHarness, yesterday: String) {
        let yesterday = Self.day(Self.now.addingTimeInterval(-86_400))
        let harness = try FeedHarness(
            registry: Self.registry,
            yaml: """
                feeds:
                  - { name: flights, adapter: earlier-offers, day: "\(yesterday)", destinations: [BUD, BER] }
                """, files: ["flights.json": try TestFixtures.data("destination/flights-ten.json")])
        _ = try await harness.run(startDate: Self.now)
        return (harness, yesterday)
    }

    @Test func noRepeatsPassesOverDestinationsOfferedOnAnEarlierDay() async throws {
        let (harness, yesterday) = try await harnessWithYesterdaysOffers()
        try harness.setConfig(flightsYAML(extra: "    no_repeats: true"))

        let report = try await harness.run(startDate: Self.now)
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .okWithRejects, "\(feed.error ?? "")")
        // BUD and BER were offered yesterday; the second London offer repeats today's first.
        await #expect(try ranked(harness) == ["offer_1", "offer_3", "offer_5", "offer_7", "offer_8"])
        #expect(
            feed.notes.contains { $0.contains("passed over 3 offer(s) to destinations offered before: BUD, BER, LON") })
        #expect(
            try await harness.rows("SELECT id FROM flight_offer WHERE offer_date = ?", [.text(yesterday)]).count == 2)
    }

    @Test func noRepeatsAlsoPassesOverFlightsOfTheTableBeforeTheSplit() async throws {
        let yesterday = Self.day(Self.now.addingTimeInterval(-86_400))
        let harness = try FeedHarness(
            registry: Self.registry,
            yaml: """
                feeds:
                  - { name: flights, adapter: earlier-offers, day: "\(yesterday)", destinations: [BUD, BER], legacy: true }
                """, files: ["flights.json": try TestFixtures.data("destination/flights-ten.json")])
        _ = try await harness.run(startDate: Self.now)
        try harness.setConfig(flightsYAML(extra: "    no_repeats: true"))

        let report = try await harness.run(startDate: Self.now)
        // flights-ten.json holds one offer that is rejected.
        #expect(report.feeds.first?.status == .okWithRejects, "\(report.feeds.first?.error ?? "")")
        await #expect(try ranked(harness) == ["offer_1", "offer_3", "offer_5", "offer_7", "offer_8"])
        #expect(try await harness.count("destination") == 2, "the old table keeps its rows and gets no new one")
    }

    @Test func withoutNoRepeatsEarlierDestinationsAreOfferedAgain() async throws {
        let (harness, _) = try await harnessWithYesterdaysOffers()
        try harness.setConfig(flightsYAML())
        _ = try await harness.run(startDate: Self.now)
        await #expect(try ranked(harness) == ["offer_0", "offer_1", "offer_3", "offer_4", "offer_5"])
    }

    @Test func runningAgainTheSameDayKeepsTodaysListWithNoRepeats() async throws {
        let harness = try harness(
            body: try TestFixtures.data("destination/flights-ten.json"), extra: "    no_repeats: true")
        _ = try await harness.run(startDate: Self.now)
        let first = try await ranked(harness)
        let report = try await harness.run(startDate: Self.now)
        let feed = try #require(report.feeds.first)
        #expect(feed.counts.inserted == 0)
        #expect(feed.counts.unchanged == 5)
        await #expect(try ranked(harness) == first)
        #expect(first == ["offer_0", "offer_1", "offer_3", "offer_4", "offer_5"])
    }

    @Test func theImageTemplateIsFilledFromTheOffer() async throws {
        let harness = try harness(
            body: try TestFixtures.data("destination/flights-ten.json"),
            extra: "    top: 1\n    image_template: \"https://img.example/{cityCodeTo}/{mapIdto}.png\"")
        _ = try await harness.run(startDate: Self.now)
        let row = try #require(try await harness.rows("SELECT image_url FROM flight_offer").first)
        #expect(row["image_url"] == .text("https://img.example/BUD/budapest_hu.png"))
    }

    @Test func aResponseWithoutOffersOrCurrencyFailsWithItsPath() async throws {
        let noData = try harness(body: Data(#"{"currency":"EUR","results":[]}"#.utf8))
        let first = try await noData.run(startDate: Self.now)
        #expect(first.feeds.first?.status == .failed)
        #expect(first.feeds.first?.error?.contains("flights.json at $.data: expected a list of offers") == true)

        let noCurrency = try harness(body: Data(#"{"data":[]}"#.utf8))
        let second = try await noCurrency.run(startDate: Self.now)
        #expect(second.feeds.first?.error?.contains("at $.currency: expected an ISO 4217 currency code") == true)
    }
}
