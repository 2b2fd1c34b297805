import Foundation
import Testing

/// `feedwork validate` reports an unknown key of a feed beside a missing required one, each at
/// its line and column, rather than stopping at the missing key.
@Suite("feedwork validate: a missing key and an unknown one")
struct ValidateMissingAndUnknownKeyTests {
    @Test func bothProblemsAreReportedAtTheirLineAndColumn() async throws {
        let directory = try FeedworkProcess.makeFolder("validate-keys")
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        feeds:
          - name: items
            adapter: json
            url: https://api.example.com/items
            key: id
            colour: red
            fields: { id: int }
        """.write(to: directory.appendingPathComponent("feeds.yaml"), atomically: true, encoding: .utf8)

        let result = try await FeedworkProcess.run(["validate"], in: directory)

        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first == "feeds.yaml:2:5: error: missing key 'entity' in feeds[0]")
        #expect(
            lines.last?.hasPrefix("feeds.yaml:6:5: error: unknown key 'colour' in feeds[0]; expected one of: ") == true)
    }
}
