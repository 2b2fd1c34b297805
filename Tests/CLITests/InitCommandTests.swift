import FeedTestSupport
import Foundation
import Testing

/// `feedwork init` writes a first config; with `--from` its json feed is guessed from a sample
/// and runs as written.
@Suite("feedwork init")
struct InitCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("init")
    }

    var configPath: String { directory.appendingPathComponent("feeds.yaml").path }

    /// Two pages of orders linked by `links.next`, with a member whose name is not a column name.
    static func ordersServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let orders = (1...3).map { index in
                let id = page * 10 + index
                return
                    #"{"orderId":\#(id),"total":"\#(id).25","paid":true,"placed-at":"2024-05-0\#(index)T10:00:00Z","lines":["a","b"]}"#
            }
            let next = page == 1 ? #""/orders?page=2""# : "null"
            return .json(#"{"result":{"orders":[\#(orders.joined(separator: ","))]},"links":{"next":\#(next)}}"#)
        }
    }

    @Test func aConfigGuessedFromAServedSampleRunsAndLoadsEveryPage() async throws {
        let server = try Self.ordersServer()
        let initialized = try await FeedworkProcess.run(
            ["init", "--from", server.url("/orders"), "--name", "orders"], in: directory)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.contains("feed 'orders' (entity order, 5 field(s), key orderId)"))
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let exported = try await FeedworkProcess.run(
            ["export", "order", "--order", "-orderId", "--limit", "1"], in: directory)
        #expect(
            exported.stdout
                == #"{"orderId":23,"total":"23.25","paid":true,"placed_at":"2024-05-03T10:00:00Z","_extra":null}"#
                + "\n")
        let count = try await FeedworkProcess.run(["export", "order", "--format", "csv"], in: directory)
        #expect(count.stdout.split(separator: "\r\n").count == 1 + 6)
    }

    @Test func theGuessesAreWrittenAsCommentedYAML() async throws {
        let server = try Self.ordersServer()
        let result = try await FeedworkProcess.run(["init", "--from", server.url("/orders"), "--print"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("records: $.result.orders   # guessed: the largest list of objects (3 in the sample)"))
        #expect(lines.contains("pagination: { type: next_url, next_path: $.links.next, max_pages: 100 }"))
        #expect(lines.contains("total: decimal"))
        #expect(lines.contains("paid: bool"))
        #expect(lines.contains(#"placed_at: { path: "$['placed-at']", type: timestamp, format: iso8601 }"#))
        #expect(lines.contains("lines: { type: list, of: string }"))
        #expect(!FileManager.default.fileExists(atPath: configPath))
    }

    @Test func withoutASampleTheConfigHasNoFeedsAndValidates() async throws {
        let result = try await FeedworkProcess.run(["init"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let validated = try await FeedworkProcess.run(["validate"], in: directory)
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stdout.contains("0 feed(s)"))
    }

    /// The line numbers of the commented YAML in `text` (a `# key: value` or `#   - key: value`
    /// line, not prose), in blocks of consecutive lines.
    static func commentedExamples(in text: String) -> [[Int]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [[Int]] = []
        for (index, line) in lines.enumerated() {
            let body = line.drop { $0 == " " }
            guard body.hasPrefix("# "),
                body.dropFirst(2).wholeMatch(of: /\s*(- )?[a-z_]+:( .*)?/) != nil
            else { continue }
            if let last = blocks.last?.last, last == index - 1 {
                blocks[blocks.count - 1].append(index)
            } else {
                blocks.append([index])
            }
        }
        return blocks
    }

    /// `text` with the `# ` of the given lines removed, their indentation kept.
    static func uncommenting(_ numbers: [Int], in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for number in numbers {
            if let hash = lines[number].range(of: "# ") { lines[number].removeSubrange(hash) }
        }
        return lines.joined(separator: "\n")
    }

    @Test func everyCommentedExampleValidatesOnceUncommented() async throws {
        let result = try await FeedworkProcess.run(["init"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: configPath, encoding: .utf8)
        let blocks = Self.commentedExamples(in: text)
        #expect(blocks.contains { $0.count >= 7 }, "the example feed: \(blocks)\n\(text)")
        for numbers in blocks + [blocks.flatMap { $0 }] {
            let uncommented = Self.uncommenting(numbers, in: text)
            try Data(uncommented.utf8).write(to: URL(fileURLWithPath: configPath))
            let validated = try await FeedworkProcess.run(["validate"], in: directory)
            #expect(validated.status == 0, "\(uncommented)\n\(validated.stdout)\(validated.stderr)")
        }
    }

    @Test func anExistingConfigIsNotReplacedWithoutForce() async throws {
        try Data("feeds: []\n# mine\n".utf8).write(to: URL(fileURLWithPath: configPath))
        let result = try await FeedworkProcess.run(["init"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("feeds.yaml exists; use --force"))
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == "feeds: []\n# mine\n")
    }

    @Test func aSampleWithoutAListOfObjectsWritesNothing() async throws {
        try Data(#"{"total": 3, "names": ["a", "b"]}"#.utf8).write(to: directory.appendingPathComponent("s.json"))
        let result = try await FeedworkProcess.run(["init", "--from", "s.json"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("s.json holds no list of objects"))
        #expect(!FileManager.default.fileExists(atPath: configPath))
    }

    @Test func aCommandWithoutAConfigSaysHowToWriteOne() async throws {
        let result = try await FeedworkProcess.run(["list"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("feeds.yaml:1:1: error: no config file here; write one with `feedwork init`"))
    }
}
