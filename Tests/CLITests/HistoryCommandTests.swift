import FeedTestSupport
import Foundation
import Testing

/// `feedwork runs` and `feedwork rejects`: the run history and the rejected records, newest
/// first, read from the store without secrets.
@Suite("feedwork runs and feedwork rejects")
struct HistoryCommandTests {
    let directory: URL
    let secret = "s3cret-\(UUID().uuidString.lowercased())"

    init() throws {
        directory = try FeedworkProcess.makeFolder("history")
    }

    /// Two passes of a fruit feed whose URL holds a secret: the first rejects one fruit of
    /// four, the second (whose server serves no kiwi) rejects none.
    func twoRuns() async throws -> LoopbackServer {
        let secret = secret
        let server = try LoopbackServer { request in
            guard request.query("key") == secret else { return .status(401) }
            let kiwi = request.path.hasSuffix("/first") ? #",{"type":"kiwi","price":-1,"weight":200}"# : ""
            return .json(
                #"{"fruit":[{"type":"apple","price":149,"weight":120},{"type":"pear","price":99,"weight":150},"#
                    + #"{"type":"fig","price":45,"weight":50}\#(kiwi)]}"#)
        }
        for path in ["/first", "/second"] {
            // One feed at a time, so run ids follow the config's order.
            let yaml = """
                defaults: { concurrency: 1 }
                feeds:
                  - { name: shop, adapter: fruit, url: "\(server.url(path))?key=${FRUIT_KEY}" }
                  - { name: other, adapter: fruit, url: missing.json }
                """
            try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
            let run = try await FeedworkProcess.run(["run"], in: directory, environment: ["FRUIT_KEY": secret])
            #expect(run.status == 1, "the feed 'other' fails: \(run.stdout)")
        }
        return server
    }

    func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func runsListsEachPassNewestFirstWithoutNeedingTheSecret() async throws {
        let server = try await twoRuns()
        defer { server.stop() }
        let result = try await FeedworkProcess.run(["runs"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("run  feed   status") == true, "\(result.stdout)")
        let rows = lines.dropFirst(2).prefix(4).map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(rows == ["4 other failed", "3 shop ok", "2 other failed", "1 shop ok_with_rejects"], "\(rows)")
        #expect(result.stdout.contains("run 4 (other): error: "), "\(result.stdout)")
    }

    @Test func runsFiltersByFeedAndLimitsAndPrintsJSON() async throws {
        let server = try await twoRuns()
        defer { server.stop() }
        let result = try await FeedworkProcess.run(["runs", "--feed", "shop", "--limit", "1", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let runs = try json(result.stdout)
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run["run"] as? Int == 3)
        #expect(run["feed"] as? String == "shop")
        #expect(run["status"] as? String == "ok")
        #expect(run["inserted"] as? Int == 0)
        #expect(run["unchanged"] as? Int == 3)
        #expect(run["rejected"] as? Int == 0)
        #expect(run["duration_ms"] is Int)
        #expect(run["started_at"] is String)
    }

    @Test func rejectsShowTheReasonPathURLAndPageWithoutTheSecret() async throws {
        let server = try await twoRuns()
        defer { server.stop() }
        let table = try await FeedworkProcess.run(["rejects"], in: directory)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("run  feed  entity  reason"), "\(table.stdout)")
        let row = try #require(table.stdout.split(separator: "\n").dropFirst(2).first.map(String.init))
        #expect(row.hasPrefix("  1  shop  fruit   price must not be negative, found -1  $.fruit[3].price"), "\(row)")
        #expect(row.contains("/first?key=***     1  {\"type\":\"kiwi\""), "\(row)")
        #expect(!table.stdout.contains(secret))

        let json = try await FeedworkProcess.run(["rejects", "--feed", "shop", "--run", "1", "--json"], in: directory)
        #expect(json.status == 0, "\(json.stderr)")
        let rejects = try self.json(json.stdout)
        #expect(rejects.count == 1)
        let reject = try #require(rejects.first)
        #expect(reject["run"] as? Int == 1)
        #expect(reject["entity"] as? String == "fruit")
        #expect(reject["path"] as? String == "$.fruit[3].price")
        #expect(reject["url"] as? String == server.url("/first") + "?key=***")
        #expect(reject["page"] as? Int == 1)
        #expect(reject["raw"] as? String == #"{"type":"kiwi","price":-1,"weight":200}"#)

        let otherRun = try await FeedworkProcess.run(["rejects", "--run", "3", "--json"], in: directory)
        #expect(try self.json(otherRun.stdout).isEmpty)
    }

    @Test func withoutAStoreBothAreAnErrorAndCreateNone() async throws {
        try Data("feeds:\n  - { name: shop, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        for command in ["runs", "rejects"] {
            let result = try await FeedworkProcess.run([command], in: directory)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("error: no store at "), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
    }

    @Test func aLimitBelowOneIsAUsageError() async throws {
        let result = try await FeedworkProcess.run(["runs", "--limit", "0"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--limit must be 1 or more"))
    }
}
