import FeedTestSupport
import Foundation
import Testing

/// An offline run of a paginated feed names a few of the cached URLs it served and counts the
/// rest; `--json` keeps them all.
@Suite("feedwork run --offline: the stale summary")
struct OfflineSummaryTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("offline")
    }

    /// Runs a 12-page feed online once, then stops the server.
    func cacheTwelvePages() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            return .json(#"{"items":[{"id":\#(page)}]\#(page < 12 ? #","next":"/items?page=\#(page + 1)""# : "")}"#)
        }
        let yaml = "feeds:\n" + PagedItemsFeed.yaml(name: "pages", url: server.url("/items"))
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let online = try await FeedworkProcess.run(["run"], in: directory)
        #expect(online.status == 0, "\(online.stderr)")
        server.stop()
    }

    @Test func theTableNamesThreeURLsAndCountsTheOthers() async throws {
        try await cacheTwelvePages()
        let offline = try await FeedworkProcess.run(["run", "--offline"], in: directory)
        #expect(offline.status == 0, "\(offline.stderr)")
        let line = try #require(offline.stdout.split(separator: "\n").first { $0.hasPrefix("pages: stale:") })
        #expect(line.contains("served 12 response(s) from the cache"))
        #expect(line.hasSuffix("page=3 and 9 more"))
    }

    @Test func jsonKeepsEveryURL() async throws {
        try await cacheTwelvePages()
        let offline = try await FeedworkProcess.run(["run", "--offline", "--json"], in: directory)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(offline.stdout.utf8)) as? [String: Any])
        let feed = try #require((report["feeds"] as? [[String: Any]])?.first)
        #expect((feed["stale_urls"] as? [String])?.count == 12)
    }
}
