import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// A parent's value that would make a segment of a child URL's path `.` or `..` (or empty)
/// is not sent, so it cannot move the request to another endpoint of the API: the parent is
/// rejected with the reason. A loopback API answers every path with lines and records the
/// paths it was asked for.
@Suite("json adapter: parent values in a URL path")
struct JSONPathSegmentTests {
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.path == "/kids" {
                return .json(#"{"kids":[{"id":".."},{"id":"."},{"id":"ok"}]}"#)
            }
            return .json(#"{"lines":[{"line":1,"sku":"SKU"}]}"#)
        }
    }

    static let kids = """
          - name: kids
            adapter: json
            url: {URL}
            retries: 0
            records: $.kids
            entity: kid
            key: id
            fields: { id: string }

        """

    static let lines = """
            records: $.lines
            entity: kid_line
            key: [kid_id, line]
            fields: { kid_id: string, line: int, sku: string }
        """

    /// The requests other than the parents' list.
    static func childPaths(_ server: LoopbackServer) -> [String] {
        server.requests.map(\.path).filter { $0 != "/kids" }.sorted()
    }

    static func expectOnlyOKRequestedAndTwoRejects(_ server: LoopbackServer, _ harness: FeedHarness) async throws {
        #expect(childPaths(server) == ["/kids/ok/lines"])
        await #expect(try harness.rows("SELECT kid_id FROM kid_line").map { $0["kid_id"]?.description } == ["ok"])
        let rejects = try await JSONFeedTest.rejects(harness)
        #expect(rejects.count == 2, "\(rejects)")
        #expect(rejects.contains { $0.contains("kid ..") && $0.contains("'..', which would change the path") })
        #expect(rejects.contains { $0.contains("kid .") && $0.contains("'.', which would change the path") })
    }

    @Test(arguments: HarnessStore.available)
    func forEachRejectsParentsWhoseIdIsADotSegment(_ store: HarnessStore) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let kids = Self.kids.replacingOccurrences(of: "{URL}", with: server.url("/kids"))
        let lines = """
              - name: kid_lines
                adapter: json
                url: \(server.url("/kids/{{parent.id}}/lines"))
                retries: 0
                for_each: { entity: kid, carry: { kid_id: id } }
                max_reject_ratio: 1
            \(Self.lines)

            """
        let yaml = "feeds:\n" + kids + lines
        let harness = try FeedHarness(registry: JSONFeedTest.registry, yaml: yaml, store: store)
        _ = try await harness.run(feeds: ["kids"])
        let report = try await harness.run(feeds: ["kid_lines"])
        #expect(report.feeds.first?.status == .okWithRejects, "\(report.feeds.first?.error ?? "")")
        try await Self.expectOnlyOKRequestedAndTwoRejects(server, harness)
    }

    @Test(arguments: HarnessStore.available)
    func aChildEndpointRejectsParentsWhoseIdIsADotSegment(_ store: HarnessStore) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let kids = Self.kids.replacingOccurrences(of: "{URL}", with: server.url("/kids"))
        let lines = """
                entities:
                  - url: \(server.url("/kids/{{parent.id}}/lines"))
                    carry: { kid_id: id }
                \(Self.lines.replacingOccurrences(of: "\n", with: "\n    "))

            """
        let yaml = "feeds:\n" + kids + lines
        let harness = try FeedHarness(registry: JSONFeedTest.registry, yaml: yaml, store: store)
        let report = try await harness.run(feeds: ["kids"])
        #expect(report.feeds.first?.status == .okWithRejects, "\(report.feeds.first?.error ?? "")")
        try await Self.expectOnlyOKRequestedAndTwoRejects(server, harness)
    }

    @Test
    func anEmptyParentValueWouldChangeThePathButADotInsideASegmentWouldNot() throws {
        let template = try TemplatedString(parsing: "https://api.example.com/kids/{{parent.id}}/lines")
        let isParent = { (name: String) in name.hasPrefix(TemplatedString.parentPrefix) }
        let empty = template.pathSegmentChange(now: Date(), values: ["parent.id": ""], notEmpty: isParent)
        #expect(empty?.segment == "")
        let dotted = try TemplatedString(parsing: "https://api.example.com/kids/{{parent.id}}.json?x=..")
        #expect(dotted.pathSegmentChange(now: Date(), values: ["parent.id": "."], notEmpty: isParent) == nil)
        let pageCursor = try TemplatedString(parsing: "https://api.example.com/items/{{page_cursor}}")
        #expect(pageCursor.pathSegmentChange(now: Date(), values: [:], notEmpty: isParent) == nil)
        #expect(
            pageCursor.pathSegmentChange(now: Date(), values: ["page_cursor": ".."], notEmpty: isParent)?.names
                == ["page_cursor"])
    }
}
