import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("The README's adapter example")
struct ReadmeExampleTests {
    func harness(_ body: String) throws -> FeedHarness {
        try FeedHarness(
            registry: AdapterRegistry([EchoAdapter.self]),
            yaml: "feeds:\n  - { name: echo, adapter: echo, url: names.json }\n", files: ["names.json": Data(body.utf8)]
        )
    }

    @Test func theReadmeShowsThisExampleVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("EchoAdapter.swift"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try #require(
            source.components(separatedBy: "// README example begin\n").last?
                .components(separatedBy: "// README example end").first)
        #expect(
            readme.contains("```swift\n" + example + "```\n"), "README.md must hold EchoAdapter.swift's example as is")
    }

    @Test func itStoresTheNames() async throws {
        let harness = try harness(#"["ada", "grace"]"#)
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.inserted == 2)
        #expect(try await harness.count("name") == 2)
    }

    @Test func aValueOfTheWrongTypeIsRejectedWithItsPath() async throws {
        let harness = try harness(#"["ada", 42]"#)
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .okWithRejects)
        #expect(feed.counts.inserted == 1)
        #expect(feed.counts.rejected == 1)
        #expect(
            try await harness.rows("SELECT path, url, page FROM _rejects")
                == [["path": .text("$[1]"), "url": .text("names.json"), "page": .integer(1)]])
    }

    @Test func aBodyThatIsNotJSONFailsTheFeedNamingItsURLAndPosition() async throws {
        let harness = try harness("[\"ada\",")
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .failed)
        #expect(
            feed.error?.contains("feed 'echo': names.json at $: invalid JSON at line 1") == true, "\(feed.error ?? "")")
    }
}
