import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed
import Synchronization
import Testing

/// A real Singer tap from PyPI, `tap-rest-api-msdk`, reading a paginated API on 127.0.0.1.
///
/// The tap is found through `FEEDWORK_TAP_REST_API_MSDK` (the path of its executable), which
/// `.ci/run` sets after installing it into a virtual environment of its own. Without it the
/// suite fails in CI (`CI` set) and is skipped elsewhere, saying how to install it.
@Suite("singer adapter: tap-rest-api-msdk")
struct SingerRealTapTests {
    static let environmentKey = "FEEDWORK_TAP_REST_API_MSDK"
    static let howToInstall = """
        tap-rest-api-msdk is not installed: python3 -m venv /tmp/tap-venv && /tmp/tap-venv/bin/pip install \
        tap-rest-api-msdk, then set \(environmentKey)=/tmp/tap-venv/bin/tap-rest-api-msdk (.ci/run does this)
        """

    /// The tap's executable; records an issue (in CI) or nothing (elsewhere) and returns `nil`
    /// when it is not installed.
    static func executable() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[environmentKey], FileManager.default.isExecutableFile(atPath: path) { return path }
        if environment["CI"] != nil { Issue.record(Comment(rawValue: howToInstall)) }
        return nil
    }

    static var installed: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil || executable() != nil
    }

    /// The API: `GET /items?page=N&since=T` gives `{"items": [...], "next_page": N+1 or null}`,
    /// three items a page, only those updated after `since` when it is given.
    final class ItemsAPI: Sendable {
        let count = Mutex(7)

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            let total = count.withLock { $0 }
            let since = request.query("since") ?? ""
            let items = (1...total).map { id in
                (id: id, updated: String(format: "2024-01-%02dT00:00:00Z", id))
            }.filter { $0.updated > since }
            let page = Int(request.query("page") ?? "1") ?? 1
            let slice = items.dropFirst((page - 1) * 3).prefix(3)
            let json = slice.map { item in
                #"{"id":\#(item.id),"name":"item \#(item.id)","price":\#(item.id).25,"active":\#(item.id % 2 == 0),"updated_at":"\#(item.updated)"}"#
            }
            let next = page * 3 < items.count ? String(page + 1) : "null"
            return .json(#"{"items":[\#(json.joined(separator: ","))],"next_page":\#(next)}"#)
        }
    }

    static func harness(tap: String, server: LoopbackServer) throws -> FeedHarness {
        try FeedHarness(
            registry: SingerFeedTest.registry,
            yaml: """
                feeds:
                  - name: rest
                    adapter: singer
                    command: ["\(tap)"]
                    tap_timeout: 2m
                    config:
                      api_url: "\(server.baseURL)"
                      streams:
                        - name: items
                          path: /items
                          primary_keys: [id]
                          records_path: "$.items[*]"
                          replication_key: updated_at
                          source_search_field: since
                          source_search_query: "$last_run_date"
                """)
    }

    @Test(.enabled(if: installed, "\(howToInstall)"), .timeLimit(.minutes(10)))
    func aRealTapLoadsItsStreamWithTypedColumnsAndResumesFromItsState() async throws {
        let tap = try #require(Self.executable())
        let api = ItemsAPI()
        let server = try LoopbackServer { api.reply($0) }
        let harness = try Self.harness(tap: tap, server: server)

        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok, "\(first.error ?? "")")
        #expect(first.counts.inserted == 7)
        #expect(try await harness.count("items") == 7)
        let schema = try #require(try await harness.store().schemas()["items"])
        #expect(schema.key == ["id"])
        let types = Dictionary(uniqueKeysWithValues: schema.columns.map { ($0.name, $0.type) })
        #expect(types["id"] == .integer)
        #expect(types["name"] == .text)
        #expect(types["price"] == .decimal)
        #expect(types["active"] == .boolean)
        let prices = try await harness.rows("SELECT price FROM items ORDER BY id LIMIT 2")
        #expect(SingerFeedTest.texts(prices, "price") == ["1.25", "2.25"])
        let state = try await harness.rows("SELECT value FROM _state WHERE key = 'singer.state'")
        #expect(SingerFeedTest.texts(state, "value").first?.contains("2024-01-07T00:00:00Z") == true)

        // Two more items; the tap sends its bookmark and gets only those.
        api.count.withLock { $0 = 9 }
        let before = server.requestCount
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.status == .ok, "\(second.error ?? "")")
        #expect(second.counts.inserted == 2)
        #expect(second.counts.unchanged == 0)
        #expect(try await harness.count("items") == 9)
        let sent = server.requests.dropFirst(before).compactMap { $0.query("since") }
        #expect(sent.contains("2024-01-07T00:00:00Z"))
    }
}
