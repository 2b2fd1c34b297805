import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `feedwork list` and `feedwork gc` with a feed whose images are mirrored.
@Suite("feedwork list and gc: mirrored media")
struct MediaCommandTests {
    static let png =
        Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] + Array("IHDR".utf8))
        + Data([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]) + Data(count: 1000)

    @Test func listShowsTheFeedsMediaAndGCRemovesWhatNoRowNames() async throws {
        let directory = try FeedworkProcess.makeFolder("media-commands")
        let server = try LoopbackServer { request in
            let host = request.header("Host") ?? ""
            switch request.path {
            case "/ads":
                return .json(
                    #"[{"id":1,"picture":"http://\#(host)/a.png"},{"id":2,"picture":"http://\#(host)/gone.png"}]"#)
            case "/fewer": return .json(#"[{"id":2,"picture":"http://\#(host)/gone.png"}]"#)
            case "/a.png": return .data(Self.png, headers: [("Content-Type", "image/png")])
            default: return .status(404)
            }
        }
        func write(_ path: String) throws {
            let yaml = """
                feeds:
                  - name: ads
                    adapter: json
                    url: \(server.url(path))
                    retries: 0
                    entity: ad
                    write: replace
                    key: id
                    fields: { id: int, picture: media }
                """
            try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        }
        try write("/ads")
        let run = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let feeds = report?["feeds"] as? [[String: Any]]
        let counts = feeds?.first?["media"] as? [String: Int]
        #expect(counts == ["failed": 1, "fetched": 1, "referenced": 2, "skipped": 0, "unchanged": 0], "\(run.stdout)")

        let list = try await FeedworkProcess.run(["list"], in: directory)
        #expect(list.stdout.contains("1/2 mirrored, 1 failed, "), "\(list.stdout)")
        let json = try await FeedworkProcess.run(["list", "--json"], in: directory)
        let listed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let media = listed?.first?["media"] as? [String: Int]
        #expect(media == ["bytes": Self.png.count, "failed": 1, "mirrored": 1, "referenced": 2], "\(json.stdout)")

        // The rows stop naming the PNG: the pass forgets its URL, gc removes it after its grace.
        try write("/fewer")
        #expect(try await FeedworkProcess.run(["run"], in: directory).status == 0)
        let kept = try await FeedworkProcess.run(["gc"], in: directory)
        #expect(kept.status == 0)
        #expect(kept.stdout.contains("no unreferenced media"), "\(kept.stdout)")
        let removed = try await FeedworkProcess.run(["gc", "--grace", "0s"], in: directory)
        #expect(removed.stdout.contains("removed 1 unreferenced media"), "\(removed.stdout)")
        let bad = try await FeedworkProcess.run(["gc", "--grace", "soon"], in: directory)
        #expect(bad.status == 2, "\(bad.stderr)")
    }
}
