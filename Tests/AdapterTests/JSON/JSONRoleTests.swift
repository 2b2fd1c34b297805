import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("json adapter: column roles")
struct JSONRoleTests {
    static let feed = """
          - name: ads
            adapter: json
            url: https://api.example.com/ads
            records: $.ads
            entity: ad
            key: id
            fields:
              id: int
              title: { type: string, role: title }
              picture: { type: string, role: image }
              price: { type: money, currency: EUR, role: money }
        """

    @Test func aRoleIsGivenToItsColumn() throws {
        let harness = try FeedHarness(registry: JSONFeedTest.registry, yaml: "feeds:\n" + Self.feed)
        let schema = try #require(try harness.config().feeds.first?.adapter.entities.first?.schema)
        let roles = Dictionary(uniqueKeysWithValues: schema.columns.map { ($0.name, $0.role) })
        #expect(roles["title"] == .title)
        #expect(roles["picture"] == .image)
        #expect(roles["price"] == .money)
        #expect(roles["id"] == ColumnRole?.none)
    }

    @Test func anUnknownRoleIsReportedAtItsLine() throws {
        let problems = try JSONValidationTests.problems(
            Self.feed.replacingOccurrences(of: "role: image", with: "role: picture"))
        #expect(problems.count == 1)
        #expect(
            problems.first?.contains("unknown role 'picture'; use image, link, title, money") == true, "\(problems)")
    }

    @Test func aRoleThatDoesNotFitTheTypeIsReported() throws {
        let problems = try JSONValidationTests.problems(
            Self.feed.replacingOccurrences(of: "{ type: string, role: title }", with: "{ type: int, role: title }"))
        #expect(problems.first?.contains("role title needs a string field, not int") == true, "\(problems)")
    }
}
