import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// Each reject is stored with the URL (secrets as `***`) and the page of the response it was
/// read from, also when pages are fetched several at once.
@Suite("json adapter: where rejects came from")
struct JSONRejectSourceTests {
    static let secret = "k-\(UUID().uuidString)"

    /// Nine items paged by `offset`/`limit` (3 a page, total given), the key required in the
    /// query; the second item of each page has a string id, so it is rejected.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            guard request.query("key") == secret, let offset = Int(request.query("offset") ?? "") else {
                return .status(400)
            }
            let items = (offset..<min(offset + 3, 9)).map { id in
                id % 3 == 1 ? #"{"id":"\#(id)","name":"bad"}"# : #"{"id":\#(id),"name":"good"}"#
            }
            return .json(#"{"items":[\#(items.joined(separator: ","))],"total":9}"#)
        }
    }

    /// Runs the feed, `parallel` pages at a time, and returns its rejects' `url`, `page` and `path`.
    static func rejects(parallel: Int) async throws -> [[String: FieldValue]] {
        let server = try server()
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                auth: { type: api_key, query: key, value: "${SHOP_KEY}" }
                pagination: { type: offset, limit: 3, total_path: $.total, parallel: \(parallel) }
                records: $.items
                entity: item
                key: id
                fields: { id: int, name: string }
            """, environment: ["SHOP_KEY": secret])
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .okWithRejects, "\(report.error ?? "")")
        return try await harness.rows("SELECT url, page, path FROM _rejects ORDER BY page")
    }

    @Test(arguments: [1, 3])
    func eachRejectNamesTheURLAndPageOfItsResponse(parallel: Int) async throws {
        let rejects = try await Self.rejects(parallel: parallel)
        #expect(rejects.count == 3)
        let pages: [(offset: String, number: Int64)] = [("0", 1), ("3", 2), ("6", 3)]
        for (reject, page) in zip(rejects, pages) {
            guard case .text(let url)? = reject["url"] else {
                Issue.record("no url: \(reject)")
                continue
            }
            #expect(url.contains("offset=\(page.offset)"), "\(url)")
            #expect(url.contains("key=***") && !url.contains(Self.secret), "\(url)")
            #expect(reject["page"] == .integer(page.number))
            #expect(reject["path"] == .text("$.items[1].id"))
        }
    }
}
