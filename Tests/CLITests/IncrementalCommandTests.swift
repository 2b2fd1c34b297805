import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// An incremental json feed from the command line: `list` shows its cursor, and
/// `run --full-refresh` reads everything again.
@Suite("feedwork run --full-refresh and the cursor in feedwork list")
struct IncrementalCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("incremental")
    }

    /// The `since` of each request, kept by the server's threads.
    final class SentValues: Sendable {
        let values = Mutex<[String]>([])
    }

    /// An API that serves the records updated at or after `since`, and keeps each `since` sent.
    static func server(sent: SentValues) throws -> LoopbackServer {
        try LoopbackServer { request in
            let since = request.query("since") ?? ""
            sent.values.withLock { $0.append(since) }
            let all = [(1, "2026-03-01T00:00:00Z"), (2, "2026-03-02T00:00:00Z")]
            let items = all.filter { $0.1 >= since }.map { #"{"id":\#($0.0),"updated_at":"\#($0.1)"}"# }
            return .json("[" + items.joined(separator: ",") + "]")
        }
    }

    func writeConfig(url: String) throws {
        let yaml = """
            feeds:
              - name: events
                adapter: json
                url: \(url)
                entity: event
                key: id
                fields: { id: int, updated_at: timestamp }
                incremental: { cursor_path: updated_at, param: since, start: "2026-01-01T00:00:00Z" }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func listShowsTheCursorAndAFullRefreshSendsTheStartAgain() async throws {
        let sent = SentValues()
        let server = try Self.server(sent: sent)
        defer { server.stop() }
        try writeConfig(url: server.url("/events"))
        #expect(try await FeedworkProcess.run(["run"], in: directory).status == 0)
        #expect(try await FeedworkProcess.run(["run"], in: directory).status == 0)
        let list = try await FeedworkProcess.run(["list"], in: directory)
        #expect(list.stdout.contains("cursor"), "\(list.stdout)")
        #expect(list.stdout.contains("2026-03-02T00:00:00Z"), "\(list.stdout)")
        let listJSON = try await FeedworkProcess.run(["list", "--json"], in: directory)
        #expect(listJSON.stdout.contains(#""cursor" : "2026-03-02T00:00:00Z""#), "\(listJSON.stdout)")
        let full = try await FeedworkProcess.run(["run", "--full-refresh", "--json"], in: directory)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stdout.contains(#""unchanged" : 2"#), "\(full.stdout)")
        #expect(
            sent.values.withLock { $0 } == ["2026-01-01T00:00:00Z", "2026-03-02T00:00:00Z", "2026-01-01T00:00:00Z"])
    }
}
