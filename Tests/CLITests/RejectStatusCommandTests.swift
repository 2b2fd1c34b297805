import Foundation
import Testing

/// How `feedwork run` and `feedwork list` show a pass with rejects: `ok_with_rejects` and exit 0
/// within `max_reject_ratio`, `failed` and exit 1 above it.
@Suite("feedwork run: rejects and max_reject_ratio")
struct RejectStatusCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("cli")
        try Data("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    /// Writes a fruit list of `good` valid fruits and `bad` ones with a negative price.
    func writeFruit(good: Int, bad: Int) throws {
        let fruits =
            (0..<good).map { #"{"type":"good\#($0)","price":100,"weight":100}"# }
            + (0..<bad).map { #"{"type":"bad\#($0)","price":-1,"weight":100}"# }
        try Data(#"{"fruit":[\#(fruits.joined(separator: ","))]}"#.utf8)
            .write(to: directory.appendingPathComponent("data.json"))
    }

    @Test func aPassWithSomeRejectsExitsZeroAndSaysOkWithRejects() async throws {
        try writeFruit(good: 3, bad: 1)
        let table = try await FeedworkProcess.run(["run"], in: directory)
        #expect(table.status == 0, "\(table.stderr)")
        let row = table.stdout.split(separator: "\n").first { $0.hasPrefix("fruit ") }
        #expect(row?.contains(" ok_with_rejects ") == true, "\(table.stdout)")

        let json = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let feeds = report?["feeds"] as? [[String: Any]] ?? []
        #expect(feeds.first?["status"] as? String == "ok_with_rejects")

        let list = try await FeedworkProcess.run(["list"], in: directory)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains(" ok_with_rejects "), "\(list.stdout)")
    }

    @Test func aPassAboveMaxRejectRatioExitsOneNamingTheRatio() async throws {
        try writeFruit(good: 1, bad: 3)
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "fruit: error: feed 'fruit': 3 of 4 records rejected (75%), above max_reject_ratio 0.5"),
            "\(result.stdout)")
        let list = try await FeedworkProcess.run(["list"], in: directory)
        // The failed first pass left no table, so the line ends with its status.
        #expect(
            list.stdout.split(separator: "\n").contains { $0.split(separator: " ").contains("failed") },
            "\(list.stdout)")
    }

    @Test func theRejectsOfAPassThatFailedForThemAreListedWithItsRun() async throws {
        try writeFruit(good: 0, bad: 3)
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 1)
        let rejects = try await FeedworkProcess.run(["rejects", "--run", "1"], in: directory)
        #expect(rejects.status == 0, "\(rejects.stderr)")
        let lines = rejects.stdout.split(separator: "\n").filter { $0.contains("price") }
        #expect(lines.count == 3, "\(rejects.stdout)")
    }
}
