import Foundation
import Testing

@Suite("feedwork run")
struct RunCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("cli")
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    @Test func exitsZeroWhenEveryFeedSucceeds() async throws {
        try write("data.json", #"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#)
        try write("feeds.yaml", "feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n")
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("fruit"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
    }

    @Test func aRunClosesTheStoreLeavingNoWriteAheadLogForTheNextRunToRead() async throws {
        // Enough rows that the log outgrows SQLite's automatic checkpoint (1,000 pages).
        let fruit = (1...20_000).map { #"{"type":"fruit-\#($0)","price":\#($0),"weight":120}"# }
        try write("data.json", #"{"fruit":[\#(fruit.joined(separator: ","))]}"#)
        try write("feeds.yaml", "feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n")
        for _ in 1...3 {
            let result = try await FeedworkProcess.run(["run"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite-wal").path))
        }
    }

    @Test func exitsOneWhenAFeedFailsAndStillCommitsTheOthers() async throws {
        try write("data.json", #"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#)
        try write(
            "feeds.yaml",
            """
            feeds:
              - { name: good, adapter: fruit, url: data.json }
              - { name: broken, adapter: fruit, url: missing.json }
            """)
        let result = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(result.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let feeds = report?["feeds"] as? [[String: Any]] ?? []
        #expect(feeds.first { $0["feed"] as? String == "good" }?["status"] as? String == "ok")
        #expect(feeds.first { $0["feed"] as? String == "broken" }?["status"] as? String == "failed")
    }

    @Test func exitsTwoWithFileLineAndColumnForAConfigError() async throws {
        try write("feeds.yaml", "feeds:\n  - name: fruit\n    adapter: frut\n    url: data.json\n")
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("feeds.yaml:3:14: error: unknown adapter 'frut'; did you mean 'fruit'?"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
    }

    @Test func validatePrintsEveryProblemAndExitsTwo() async throws {
        try write(
            "feeds.yaml",
            """
            defaults: { timeout: soon }
            feeds:
              - { name: a, adapter: fruit, url: x.json, colour: red }
              - { name: a, adapter: fruit, url: y.json }
            """)
        let result = try await FeedworkProcess.run(["validate"], in: directory)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(result.stderr.contains("feeds.yaml:1:22: error: 'soon' is not a duration"))
        #expect(result.stderr.contains("feeds.yaml:3:45: error: unknown key 'colour' in feeds[0]"))
        #expect(result.stderr.contains("feeds.yaml:4:13: error: duplicate feed name 'a' (first used at line 3)"))
    }
}
