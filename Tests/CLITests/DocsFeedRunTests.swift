import FeedTestSupport
import Foundation
import Testing

/// Every whole feeds.yaml of the json adapter's pages (docs/json) whose feeds read files runs
/// offline, as a reader runs it: saved as feeds.yaml in a copy of docs/json, so that its urls
/// (`fixtures/PAGE/...`) name the fixture files beside the pages. Each feed ends `ok` and
/// stores rows, so a fixture missing or a feed that breaks fails here. A block whose urls are
/// http(s) needs its API and is only validated (DocsYAMLExampleTests).
@Suite("docs/json: every whole feeds.yaml whose feeds read files runs offline")
struct DocsFeedRunTests {
    /// The pages whose complete feed needs a live API, and why.
    static let pagesWithoutOfflineFeed: [(page: String, why: String)] = [
        ("docs/json/oauth2.md", "a file cannot answer a token request")
    ]

    /// The values of the block's `url`-like keys (`url`, `token_url`, `listing_url`, ...).
    static func urls(in block: DocsYAMLExampleTests.Block) -> [String] {
        let pattern = /(?:^|[\s{,-])[a-z_]*url:\s*"?([^\s,}"]+)/
        return block.text.split(separator: "\n").flatMap { line in
            line.matches(of: pattern).map { String($0.output.1) }
        }
    }

    /// Whether every feed of the block reads files: it names urls, none of them http(s).
    static func readsFiles(_ block: DocsYAMLExampleTests.Block) -> Bool {
        let urls = urls(in: block)
        return !urls.isEmpty
            && !urls.contains { $0.lowercased().hasPrefix("http://") || $0.lowercased().hasPrefix("https://") }
    }

    /// The whole-config blocks of docs/json whose feeds read files.
    static var offlineBlocks: [DocsYAMLExampleTests.Block] {
        DocsYAMLExampleTests.blocks.filter { $0.file.hasPrefix("docs/json/") && readsFiles($0) }
    }

    @Test func everyPageButThoseThatNeedAnAPIHasAFeedThatRunsOffline() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: DocsYAMLExampleTests.folder.path)
        let pages = Set(names.filter { $0.hasSuffix(".md") }.map { "docs/json/" + $0 })
        let withOfflineFeed = Set(Self.offlineBlocks.map(\.file))
        let expected = pages.subtracting(Self.pagesWithoutOfflineFeed.map(\.page))
        #expect(withOfflineFeed == expected, "missing: \(expected.subtracting(withOfflineFeed).sorted())")
    }

    @Test(arguments: offlineBlocks)
    func theFeedRunsOfflineAndStoresRows(_ block: DocsYAMLExampleTests.Block) async throws {
        let directory = try FeedworkProcess.makeFolder("docs-feed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("json")
        try FileManager.default.copyItem(at: DocsYAMLExampleTests.folder, to: copy)
        try Data(block.text.utf8).write(to: copy.appendingPathComponent("feeds.yaml"))

        let result = try await FeedworkProcess.run(["run", "--json"], in: copy)
        #expect(result.status == 0, "\(block): \(result.stdout)\(result.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(block): \(result.stderr)")
        let feeds = try #require(report["feeds"] as? [[String: Any]], "\(block)")
        #expect(!feeds.isEmpty, "\(block)")
        for feed in feeds {
            let name = feed["feed"] as? String ?? "?"
            #expect(feed["status"] as? String == "ok", "\(block): \(name): \(feed["error"] ?? "")")
            let inserted = (feed["counts"] as? [String: Any])?["inserted"] as? Int ?? 0
            #expect(inserted > 0, "\(block): \(name) stored no rows")
        }
    }
}
