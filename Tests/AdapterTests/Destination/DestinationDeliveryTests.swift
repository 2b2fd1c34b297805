import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Destination adapter: deliveries")
struct DestinationDeliveryTests {
    static let registry = AdapterRegistry([DestinationAdapter.self])

    func harness(url: String, extra: String = "", files: [String: Data] = [:]) throws -> FeedHarness {
        try FeedHarness(
            registry: Self.registry,
            yaml: """
                defaults: { retries: 3, backoff: 10ms, max_reject_ratio: 1 }
                feeds:
                  - name: deliveries
                    adapter: destination
                    source: deliveries
                    url: "\(url)"
                \(extra)
                """, files: files)
    }

    func text(_ value: FieldValue?) -> String? { if case .text(let text)? = value { text } else { nil } }

    func integer(_ value: FieldValue?) -> Int? { if case .integer(let number)? = value { Int(number) } else { nil } }

    @Test func allSeventyLandExactlyOnceThroughPagesAndServerErrors() async throws {
        // Every third request fails, so most pages need a retry.
        let server = try DeliveryServer.start(items: try DeliveryServer.seventyDeliveries()) { $0.number % 3 == 0 }
        let harness = try harness(url: server.url("/deliveries"))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok, "\(feed.error ?? "")")
        #expect(feed.counts.inserted == 70)
        #expect(feed.counts.duplicates == 0)
        #expect(try await harness.count("delivery") == 70)
        let ids = try await harness.rows("SELECT DISTINCT id FROM delivery")
        #expect(ids.count == 70)
        let served = server.requests.filter { $0.number % 3 != 0 }
        #expect(served.map { $0.query("offset") } == ["0", "20", "40", "60", "80"])
        #expect(served.allSatisfy { $0.query("limit") == "20" })
        #expect(server.requestCount > served.count, "some requests were answered with 500")
    }

    @Test func aSecondPassWithTheServerDownServesTheCachedPagesAndChangesNothing() async throws {
        let server = try DeliveryServer.start(items: try DeliveryServer.seventyDeliveries())
        let harness = try harness(url: server.url("/deliveries"))
        let first = try await harness.run()
        #expect(first.feeds.first?.counts.inserted == 70)
        let before = try await harness.rows("SELECT _key, _hash, _run FROM delivery ORDER BY _key")
        server.stop()

        let second = try await harness.run()
        let feed = try #require(second.feeds.first)
        #expect(feed.status == .stale)
        #expect(feed.counts.inserted == 0)
        #expect(feed.counts.updated == 0)
        #expect(feed.counts.unchanged == 70)
        #expect(feed.staleURLs.count == 5, "the four pages and the empty last page")
        #expect(feed.staleURLs.allSatisfy { $0.contains("offset=") })
        #expect(try await harness.rows("SELECT _key, _hash, _run FROM delivery ORDER BY _key") == before)
    }

    @Test func aBadRequestFailsThePassAtOnceWithoutRetryOrPartialRows() async throws {
        let server = try LoopbackServer { request in
            request.query("offset") == "40" ? .status(400) : .json(#"[{"id": \#(request.query("offset") ?? "0")}]"#)
        }
        let harness = try harness(url: server.url("/deliveries"))
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("HTTP 400") == true)
        #expect(feed.error?.contains("offset=40") == true)
        #expect(server.requests.filter { $0.query("offset") == "40" }.count == 1, "a 400 is not retried")
        #expect(try await harness.tableNames(like: "delivery%") == [], "pages 0 and 20 were rolled back with the pass")
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func realFirstPageGivesTwentyDeliveriesWithExactValues() async throws {
        let harness = try harness(
            url: "pages/deliveries-{offset}.json",
            files: ["pages/deliveries-0.json": try RealFixtures.data("destination/delivery-page-0.json")])
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok)
        #expect(feed.counts.inserted == 20)
        #expect(feed.requests == 2, "page 0, then the missing page 20 ends the list")
        let five = try #require(
            try await harness.rows("SELECT * FROM delivery WHERE id = 5").first)
        #expect(five["description"] == .text("Deliver wine to Kenneth"))
        #expect(
            five["image_url"] == .text("https://s3-ap-southeast-1.amazonaws.com/lalamove-mock-api/images/pet-8.jpeg"))
        #expect(five["latitude"] == .real(22.336093))
        #expect(five["longitude"] == .real(114.155288))
        #expect(five["address"] == .text("Cheung Sha Wan"))
        #expect(five["price"] == nil && five["rank"] == nil, "a delivery row has no flight columns")
        let ids = try await harness.rows("SELECT id FROM delivery ORDER BY id").compactMap { integer($0["id"]) }
        #expect(ids == Array(0..<20))
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func specExampleGivesTwoDeliveries() async throws {
        let harness = try harness(
            url: "deliveries-{offset}.json",
            files: ["deliveries-0.json": try RealFixtures.data("destination/delivery-spec-example.json")])
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.inserted == 2)
        let one = try #require(try await harness.rows("SELECT * FROM delivery WHERE id = 1").first)
        #expect(one["description"] == .text("Deliver parcel to Leviero"))
        #expect(one["latitude"] == .real(22.319181))
        #expect(one["longitude"] == .real(114.170008))
        #expect(one["address"] == .text("Mong Kok"))
    }

    @Test func recordsWithoutAnIdOrWithBadFieldsAreRejectedWhileTheRestOfThePageLands() async throws {
        let harness = try harness(
            url: "deliveries-{offset}.json",
            files: ["deliveries-0.json": try TestFixtures.data("destination/deliveries-bad.json")])
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .okWithRejects)
        #expect(feed.counts.inserted == 4)
        #expect(feed.counts.rejected == 7)
        let ids = try await harness.rows("SELECT id FROM delivery ORDER BY id").compactMap { integer($0["id"]) }
        #expect(ids == [1, 6, 7, 9])
        let sparse = try #require(try await harness.rows("SELECT * FROM delivery WHERE id = 6").first)
        #expect(sparse["description"] == .null)
        #expect(sparse["image_url"] == .null)
        #expect(sparse["latitude"] == .null)
        let reasons = try await harness.rows("SELECT path, reason FROM _rejects ORDER BY id").compactMap { row in
            text(row["path"]).flatMap { path in text(row["reason"]).map { "\(path): \($0)" } }
        }
        #expect(
            reasons == [
                "$[1].id: id is missing or null",
                "$[2].id: id is missing or null",
                "$[3].id: id must be a whole number, found a string",
                "$[4].id: id must be a whole number, found 5.5",
                "$[7].location.lat: location.lat must be a number, found a string",
                "$[9]: expected an object, found a list",
                "$[10].imageUrl: imageUrl must be a string, found a number",
            ])
    }

    @Test func aPageThatIsNotAListFailsTheFeedWithItsURL() async throws {
        let harness = try harness(
            url: "deliveries-{offset}.json", files: ["deliveries-0.json": Data(#"{"deliveries": []}"#.utf8)])
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("deliveries-0.json at $: expected a list of deliveries, found an object") == true)
    }

    @Test func pagingStopsAtMaxPagesWithANote() async throws {
        let server = try LoopbackServer { request in .json(#"[{"id": \#(request.query("offset") ?? "0")}]"#) }
        let harness = try harness(url: server.url("/deliveries"), extra: "    limit: 1\n    max_pages: 3")
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .ok)
        #expect(feed.counts.inserted == 3)
        #expect(server.requests.map { $0.query("offset") } == ["0", "1", "2"])
        #expect(feed.notes.contains { $0.contains("max_pages (3)") })
    }

    @Test func aURLTemplatePutsOffsetAndLimitInPlace() async throws {
        let server = try LoopbackServer { request in
            request.path == "/deliveries/0/5" ? .json(#"[{"id": 1}]"#) : .json("[]")
        }
        let harness = try harness(url: server.url("/deliveries/{offset}/{limit}"), extra: "    limit: 5")
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.inserted == 1)
        #expect(server.requests.map(\.target) == ["/deliveries/0/5", "/deliveries/5/5"])
    }
}
