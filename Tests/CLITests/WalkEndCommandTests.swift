import FeedTestSupport
import Foundation
import Testing

/// `feedwork run --json` says why each feed's walk over pages ended.
@Suite("feedwork run --json: why the pages ended")
struct WalkEndCommandTests {
    @Test func theReportNotesWhyTheWalkEnded() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            return .json(#"{"items":[{"id":\#(page)}]\#(page < 3 ? #","next":"/items?page=\#(page + 1)""# : "")}"#)
        }
        let directory = try FeedworkProcess.makeFolder("walk-end")
        let yaml = "feeds:\n" + PagedItemsFeed.yaml(name: "pages", url: server.url("/items"))
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let feed = try #require((report["feeds"] as? [[String: Any]])?.first)
        #expect(feed["status"] as? String == "ok")
        let notes = feed["notes"] as? [String] ?? []
        #expect(notes.contains("pagination: 3 page(s); ended: no next page (no_next_page)"), "\(notes)")
    }
}
