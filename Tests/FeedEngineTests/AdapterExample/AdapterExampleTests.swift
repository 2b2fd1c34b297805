import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("The adapter example of docs/adapters/writing-an-adapter.md")
struct AdapterExampleTests {
    func harness(_ body: String) throws -> FeedHarness {
        try FeedHarness(
            registry: AdapterRegistry([EchoAdapter.self]),
            yaml: "feeds:\n  - { name: echo, adapter: echo, url: names.json }\n", files: ["names.json": Data(body.utf8)]
        )
    }

    @Test func thePageShowsThisExampleVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("EchoAdapter.swift"), encoding: .utf8)
        let page = try String(
            contentsOf: root.appendingPathComponent("docs/adapters/writing-an-adapter.md"), encoding: .utf8)
        let example = try #require(
            source.components(separatedBy: "// Example begin\n").last?.components(separatedBy: "// Example end").first)
        #expect(
            page.contains("```swift\n" + example + "```\n"),
            "docs/adapters/writing-an-adapter.md must hold EchoAdapter.swift's example as is")
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
