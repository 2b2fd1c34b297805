import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `entities:`: further entities read from the same responses, written in the same pass.
@Suite("json adapter: several entities per response")
struct JSONSideEntityTests {
    /// A JSON:API service: three pages of two articles, each page's authors (and a comment) in
    /// `included`, an author appearing on two pages.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let articles = (0..<2).map { offset -> String in
                let id = (page - 1) * 2 + offset + 1
                return
                    #"{"type":"articles","id":"\#(id)","attributes":{"title":"t\#(id)"},"relationships":{"author":{"data":{"type":"people","id":"\#(page)"}}}}"#
            }
            let included = [
                #"{"type":"people","id":"\#(page)","attributes":{"name":"p\#(page)"}}"#,
                #"{"type":"people","id":"\#(page + 1)","attributes":{"name":"p\#(page + 1)"}}"#,
                #"{"type":"comments","id":"c\#(page)","attributes":{"body":"hi"}}"#,
            ]
            let next = page < 3 ? #""/articles?page=\#(page + 1)""# : "null"
            return .json(
                #"{"data":[\#(articles.joined(separator: ","))],"included":[\#(included.joined(separator: ","))],"links":{"next":\#(next)}}"#,
                headers: [("Content-Type", "application/vnd.api+json")])
        }
    }

    @Test(arguments: HarnessStore.available)
    func aJSONAPIServiceStoresArticlesAndTheirIncludedPeopleWithOneFetchPerPage(driver: HarnessStore)
        async throws
    {
        let server = try Self.server()
        let harness = try JSONFeedTest.harness(
            url: server.url("/articles"),
            """
                pagination: { type: next_url, next_path: $.links.next }
                records: $.data
                entity: article
                key: id
                fields:
                  id: { type: int, from_string: true }
                  title: { path: attributes.title, type: string }
                  author_id: { path: relationships.author.data.id, type: int, from_string: true }
                entities:
                  - records: $.included
                    when: { path: type, equals: people }
                    entity: person
                    key: id
                    fields:
                      id: { type: int, from_string: true }
                      name: { path: attributes.name, type: string }
            """, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(server.requestCount == 3)
        #expect(
            JSONFeedTest.integers(try await harness.rows("SELECT id FROM article ORDER BY id"), "id") == [
                1, 2, 3, 4, 5, 6,
            ])
        let people = try await harness.rows("SELECT id, name FROM person ORDER BY id")
        #expect(JSONFeedTest.integers(people, "id") == [1, 2, 3, 4])
        #expect(JSONFeedTest.texts(people, "name") == ["p1", "p2", "p3", "p4"])
        let joined = try await harness.rows(
            "SELECT a.id FROM article a JOIN person p ON p.id = a.author_id WHERE p.name = 'p2'")
        #expect(JSONFeedTest.integers(joined, "id") == [3, 4])
        // A second pass maps the pages again and finds nothing changed.
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.counts.inserted == 0 && second.counts.updated == 0, "\(second.counts)")
    }

    @Test(arguments: HarnessStore.available)
    func aBadIncludedRecordIsRejectedWithItsPlaceInTheList(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in
            .json(
                #"{"data":[{"id":"1"}],"included":[{"type":"tags","id":"x"},{"type":"people","id":"two"}]}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/articles"),
            """
                max_reject_ratio: 1
                records: $.data
                entity: article
                key: id
                fields: { id: { type: int, from_string: true } }
                entities:
                  - { records: $.included, when: { path: type, equals: people }, entity: person, key: id, fields: { id: { type: int, from_string: true } } }
            """, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .okWithRejects)
        await #expect(
            try JSONFeedTest.rejects(harness) == [
                "$.included[1].id: expected a whole number (from_string), found a string 'two'"
            ])
    }

    @Test func sideEntityProblemsAreReportedAtTheirPlace() throws {
        let problems = try JSONValidationTests.problems(
            JSONValidationTests.valid + """

                    entities:
                      - { records: $.included, entity: item, key: id, fields: { id: int } }
                      - { records: "$.x[", entity: person, key: sku, fields: { id: int } }
                """)
        #expect(
            problems == [
                "12:40: feed 'items': entity 'item' is already written by this feed; give each entity its own name",
                "13:20: feed 'items': bad path '$.x[': '[' is not closed",
                "13:49: feed 'items': key field 'sku' is not declared in fields (declared: id)",
            ])
    }
}
