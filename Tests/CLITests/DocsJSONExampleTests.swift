import FeedKit
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// The json adapter's OAuth2, `for_each` and `window` examples (docs/json/oauth2.md,
/// for-each.md and date-windows.md) run, as written, through `feedwork run`: each `yaml` block
/// of those pages becomes a feeds.yaml whose example hosts point at a loopback API answering as
/// the example expects.
@Suite("docs/json: the OAuth2, for_each and window examples run")
struct DocsJSONExampleTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("docs-json")
    }

    /// The fenced `yaml` blocks of the section under `heading` (to the next heading) of the page
    /// at `path`, without the indentation of their fence.
    static func yamlBlocks(inSection heading: String, of path: String) -> [String] {
        var blocks: [String] = []
        var current: (indent: Int, lines: [String])?
        for line in Documentation.section(heading, of: path) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```yaml" {
                current = (line.prefix { $0 == " " }.count, [])
            } else if let block = current, trimmed == "```" {
                blocks.append(block.lines.joined(separator: "\n") + "\n")
                current = nil
            } else if let block = current {
                current?.lines.append(String(line.dropFirst(min(block.indent, line.prefix { $0 == " " }.count))))
            }
        }
        return blocks
    }

    /// Runs `feedwork run --json` on `yaml` under `feeds:` in `folder` (the test's own by
    /// default); returns each feed's status.
    func run(_ yaml: String, in folder: URL? = nil, environment: [String: String] = [:]) async throws
        -> [String: String]
    {
        let directory = folder ?? directory
        try Data(("feeds:\n" + yaml).utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["run", "--json"], in: directory, environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let feeds = try #require(report["feeds"] as? [[String: Any]])
        var statuses: [String: String] = [:]
        for feed in feeds { statuses[feed["feed"] as? String ?? ""] = feed["status"] as? String }
        return statuses
    }

    /// The rows of `entity` in the store of `folder` (the test's own by default).
    func rows(_ entity: String, in folder: URL? = nil) async throws -> [[String: Any]] {
        let directory = folder ?? directory
        let export = try await FeedworkProcess.run(["export", entity, "--format", "ndjson"], in: directory)
        try #require(export.status == 0, "\(export.stderr)")
        return try export.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func theOAuth2ExampleRuns() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocks = Self.yamlBlocks(
            inSection: "# OAuth2: `oauth2_client_credentials` and `oauth2_refresh_token`", of: "docs/json/oauth2.md")
        try #require(blocks.count == 1, "\(blocks)")
        var settings = LoopbackOAuth2Server.Settings()
        settings.clientID = "feedwork"
        let server = try LoopbackOAuth2Server(settings) { request in
            request.path == "/v2/contacts"
                ? .json(#"{"contacts":[{"id":1,"email":"ada@example.com"},{"id":2,"email":"alan@example.com"}]}"#)
                : .status(404)
        }
        defer { server.stop() }
        let yaml = blocks[0].replacingOccurrences(of: "https://auth.crm.example/oauth/token", with: server.tokenURL)
            .replacingOccurrences(of: "https://api.crm.example", with: server.url(""))
        let statuses = try await run(yaml, environment: ["CRM_CLIENT_SECRET": settings.clientSecret])
        #expect(statuses == ["crm-contacts": "ok"])
        #expect(server.tokenRequests.count == 1)
        let form = server.tokenRequests.first?.bodyText ?? ""
        #expect(form.contains("grant_type=client_credentials") && form.contains("scope=contacts"), "\(form)")
        await #expect(
            try rows("contact").compactMap { $0["email"] as? String }.sorted() == [
                "ada@example.com", "alan@example.com",
            ])
    }

    /// `/orders` lists three orders (the third cancelled); `/orders/N/lines` has N lines.
    static func shop(_ request: LoopbackRequest) -> LoopbackReply {
        if request.path == "/orders" {
            return .json(
                """
                {"orders":[{"id":1,"status":"open","updated_at":"2026-03-01T09:00:00Z"},
                {"id":2,"status":"open","updated_at":"2026-03-01T10:00:00Z"},
                {"id":3,"status":"cancelled","updated_at":"2026-03-01T11:00:00Z"}]}
                """)
        }
        let parts = request.path.split(separator: "/")
        guard parts.count == 3, parts[0] == "orders", let id = Int(parts[1]), (1...3).contains(id) else {
            return .status(404)
        }
        let lines = (1...id).map { #"{"line":\#($0),"sku":"SKU-\#(id)-\#($0)","quantity":\#($0)}"# }
        return .json(#"{"lines":[\#(lines.joined(separator: ","))]}"#)
    }

    /// The order keys of the stored lines, sorted.
    func lineOrders(in folder: URL? = nil) async throws -> [Int] {
        try await rows("order_line", in: folder).compactMap { $0["order_id"] as? Int }.sorted()
    }

    @Test func theForEachExamplesRun() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocks = Self.yamlBlocks(inSection: "# One request per parent: `for_each`", of: "docs/json/for-each.md")
        try #require(blocks.count == 2, "\(blocks)")
        let server = try LoopbackServer(handler: Self.shop)
        defer { server.stop() }

        // Another feed's orders: one run, the orders' pass first; cancelled order 3 is not followed.
        let feeds = blocks[0].replacingOccurrences(of: "https://api.example.com", with: server.url(""))
        #expect(try await run(feeds) == ["orders": "ok", "order-lines": "ok"])
        await #expect(try lineOrders() == [1, 2, 2])
        #expect(!server.requests.contains { $0.path == "/orders/3/lines" })

        // The orders' own lines, followed in the same pass.
        let other = try FeedworkProcess.makeFolder("docs-json")
        defer { try? FileManager.default.removeItem(at: other) }
        let sameFeed = blocks[1].replacingOccurrences(of: "https://api.example.com", with: server.url(""))
        #expect(try await run(sameFeed, in: other) == ["orders": "ok"])
        await #expect(try lineOrders(in: other) == [1, 2, 2, 3, 3, 3])
    }

    @Test func theWindowExampleRuns() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocks = Self.yamlBlocks(
            inSection: "# Backfilling in date windows: `window`", of: "docs/json/date-windows.md")
        try #require(blocks.count == 1, "\(blocks)")
        // An event a day at noon; a range over 31 days is refused.
        let server = try LoopbackServer { request in
            guard let from = ISO8601.parse(request.query("from") ?? "").map(Int64.init),
                let to = ISO8601.parse(request.query("to") ?? "").map(Int64.init), to > from, to - from <= 31 * 86_400
            else { return .json(#"{"error":"at most 31 days"}"#, status: 400) }
            let noons = stride(from: from / 86_400 * 86_400 + 43_200, to: to, by: 86_400).filter { $0 >= from }
            let events = noons.map { #"{"id":\#($0 / 86_400),"at":"\#(CivilTime(unixSeconds: $0).iso8601)"}"# }
            return .json("[" + events.joined(separator: ",") + "]")
        }
        defer { server.stop() }
        let yaml = blocks[0].replacingOccurrences(of: "https://api.example.com", with: server.url(""))
        #expect(try await run(yaml) == ["events": "ok"])
        let asked = server.requests.map { "\($0.query("from") ?? "") \($0.query("to") ?? "")" }
        #expect(asked.count == 13, "90 days and part of today in windows of 7: \(asked)")
        #expect(zip(asked, asked.dropFirst()).allSatisfy { $0.split(separator: " ")[1] == $1.split(separator: " ")[0] })
        let runs = try await WorkerRun.all(in: directory)
        #expect(runs.count == 13 && runs.allSatisfy { $0.status == "ok" }, "a run per window: \(runs)")
        await #expect(try rows("event").count >= 90)
    }
}
