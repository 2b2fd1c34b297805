import FeedTestSupport
import Foundation
import Testing

@Suite("feedwork record and feedwork test")
struct FixtureCommandTests {
    let directory: URL
    let secret = "s3cret-\(UUID().uuidString.lowercased())"

    init() throws {
        directory = try FeedworkProcess.makeFolder("cli")
    }

    var suite: URL { directory.appendingPathComponent("fixtures/shop") }

    /// A fruit API that wants the key in the query and echoes it in a header and a record.
    func startServer() throws -> LoopbackServer {
        let secret = secret
        return try LoopbackServer { request in
            guard request.query("key") == secret else { return .status(401) }
            return .json(
                """
                {"fruit":[{"type":"apple","price":149,"weight":120},{"type":"\(secret)","price":1,"weight":1},
                {"type":"kiwi","price":-1,"weight":200}]}
                """
            ).header("X-Key-Echo", secret)
        }
    }

    func writeConfig(url: String) throws {
        // Two of the three fruits are rejected: more than the default max_reject_ratio allows.
        let yaml = """
            defaults: { max_reject_ratio: 1 }
            feeds:
              - name: shop
                adapter: fruit
                url: "\(url)?key=${FRUIT_KEY}"
                fixtures: fixtures/shop
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    func allWrittenBytes() throws -> [(String, Data)] {
        let files = try #require(FileManager.default.enumerator(at: suite, includingPropertiesForKeys: nil))
        return files.compactMap { item in
            guard let url = item as? URL, let data = try? Data(contentsOf: url) else { return nil }
            return (url.lastPathComponent, data)
        }
    }

    @Test func recordThenTestOfflineThenCatchAChangeThenUpdate() async throws {
        let server = try startServer()
        try writeConfig(url: server.url("/data.json"))

        let recorded = try await FeedworkProcess.run(
            ["record", "shop"], in: directory, environment: ["FRUIT_KEY": secret])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("Recorded 1 response(s) of feed shop"))
        server.stop()

        let written = try allWrittenBytes()
        #expect(written.count >= 5, "feed.yaml, responses.json, one body, fruit and _rejects expected")
        for (name, data) in written {
            #expect(data.range(of: Data(secret.utf8)) == nil, "\(name) holds the secret")
        }
        let feedYAML = try String(contentsOf: suite.appendingPathComponent("feed.yaml"), encoding: .utf8)
        #expect(feedYAML.contains("${FRUIT_KEY}"))
        #expect(feedYAML.contains("max_reject_ratio: 1"), "the default the feed ran with is kept in its block")
        let index = try String(contentsOf: suite.appendingPathComponent("responses.json"), encoding: .utf8)
        #expect(index.contains("/data.json?key=***"))

        let replayed = try await FeedworkProcess.run(["test", "--feed", "shop"], in: directory)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("PASS shop"))
        #expect(replayed.stdout.contains("1 passed, 0 failed"))

        let expectedFile = suite.appendingPathComponent("expected/fruit.ndjson")
        let text = try String(contentsOf: expectedFile, encoding: .utf8)
        #expect(text.contains(#""_key":"apple","type":"apple","price":149"#))
        try Data(text.replacingOccurrences(of: #""price":149"#, with: #""price":150"#).utf8).write(to: expectedFile)

        let changed = try await FeedworkProcess.run(["test", "--feed", "shop"], in: directory)
        #expect(changed.status == 1)
        #expect(changed.stdout.contains(#"fruit key "apple" (feed shop): field price: expected 150, got 149"#))
        #expect(changed.stdout.contains("0 passed, 1 failed"))

        let updated = try await FeedworkProcess.run(["test", "--feed", "shop", "--update"], in: directory)
        #expect(updated.status == 0, "\(updated.stdout)")
        #expect(updated.stdout.contains("UPDATED shop"))
        let again = try await FeedworkProcess.run(["test"], in: directory)
        #expect(again.status == 0, "\(again.stdout)")
        #expect(again.stdout.contains("1 passed, 0 failed"))
    }

    @Test func recordedRejectsAreExpectedToo() async throws {
        let server = try startServer()
        defer { server.stop() }
        try writeConfig(url: server.url("/data.json"))
        let recorded = try await FeedworkProcess.run(
            ["record", "shop"], in: directory, environment: ["FRUIT_KEY": secret])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let rejects = try String(contentsOf: suite.appendingPathComponent("expected/_rejects.ndjson"), encoding: .utf8)
        #expect(rejects.contains(#""path":"$.fruit[2].price","reason":"price must not be negative, found -1""#))
    }

    @Test func aRequestWithoutRecordingFailsNamingIt() async throws {
        let server = try startServer()
        try writeConfig(url: server.url("/data.json"))
        let recorded = try await FeedworkProcess.run(
            ["record", "shop"], in: directory, environment: ["FRUIT_KEY": secret])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        server.stop()
        try writeConfig(url: server.url("/other.json"))
        let result = try await FeedworkProcess.run(["test", "--feed", "shop"], in: directory)
        #expect(result.status == 1)
        #expect(result.stdout.contains("no recorded response for GET \(server.url("/other.json"))?key=***"))
    }

    @Test func aFeedWithoutFixturesIsAUsageError() async throws {
        try Data("feeds:\n  - { name: shop, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["test", "--feed", "shop"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("feed 'shop' has no fixtures: folder; record one with `feedwork record shop`"))
    }

    @Test func theBuiltInSuitesOfAnAdapterPass() async throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }  // Tests/CLITests/FixtureCommandTests.swift
        let result = try await FeedworkProcess.run(["test", "fruit", "--fixtures-root", root.path], in: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS Fruit/bbc-fruit"))
        #expect(!result.stdout.contains("Currency"))
    }
}
