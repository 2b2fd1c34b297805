import Foundation
import Testing

/// `feedwork validate` lists every problem of every feed in one run: a config with problems in
/// three json feeds (option values, field declarations, keys, pagination, auth) and a fruit
/// feed, each reported once with its line and column.
@Suite("feedwork validate: every problem at once")
struct ValidateEveryProblemTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AdapterTests/Fixtures/many-problems")

    @Test func everyPlantedProblemIsReportedInOneRun() async throws {
        let directory = try FeedworkProcess.makeFolder("validate")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: Self.folder.appendingPathComponent("feeds.yaml"), to: directory.appendingPathComponent("feeds.yaml"))
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("expected.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)

        let result = try await FeedworkProcess.run(["validate"], in: directory)

        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == expected)
        #expect(expected.count == 20)
        #expect(
            expected.allSatisfy {
                $0.range(of: #"^feeds\.yaml:[0-9]+:[0-9]+: error: "#, options: .regularExpression) != nil
            })
    }
}
