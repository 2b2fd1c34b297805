import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// A pass on a PostgreSQL store whose process goes silent (paused with SIGSTOP, as a frozen
/// machine or a long GC pause would) gives its feed up once silent for half the lease, so the
/// feed runs elsewhere; a live pass that only waits for a slow page keeps it.
@Suite("PostgreSQL: a silent pass gives its feed up")
struct SilentPassTests {
    /// A folder with a feeds.yaml of the three-page feed `items` of `server` on the test
    /// server's schema `schema`, with `lease: 4s` (silence: 2 s).
    static func folder(_ server: LoopbackServer, url: String, schema: String) throws -> URL {
        let directory = try FeedworkProcess.makeFolder("silent-pass")
        let yaml = """
            store: \(url)
            schema: \(schema)
            defaults: { lease: 4s }
            feeds:
            \(PagedItemsFeed.yaml(name: "items", url: server.url("/items")))
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        return directory
    }

    /// Whether the server holds page 2 back.
    final class Holding: Sendable {
        let value = Mutex(true)
        func release() { value.withLock { $0 = false } }
    }

    /// A server of three pages at `/items`; page 2 answers after `hold` until `holding` is
    /// released.
    static func server(holding: Holding, hold: Duration) throws -> LoopbackServer {
        try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let next = page < 3 ? #","next":"/items?page=\#(page + 1)""# : ""
            let reply = LoopbackReply.json(#"{"items":[{"id":\#(page)}]\#(next)}"#)
            return page == 2 && holding.value.withLock({ $0 }) ? reply.delayed(by: hold) : reply
        }
    }

    @Test func aPausedPassGivesItsFeedUpAndRollsBackWhenItWakes() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        let holding = Holding()
        let server = try Self.server(holding: holding, hold: .seconds(15))
        defer { server.stop() }
        let directory = try Self.folder(server, url: url, schema: schema)
        defer { try? FileManager.default.removeItem(at: directory) }

        let paused = try FeedworkProcess.startCollecting(["run"], in: directory)
        defer { paused.stop(SIGKILL) }
        try await server.waitForRequests(2)  // page 1 is in the pass's transaction
        paused.send(SIGSTOP)
        holding.release()

        // Before, the paused process kept the feed's lease (and its pass's row locks) for as
        // long as it was paused: this run waited its whole --wait and found the feed busy.
        let started = ContinuousClock.now
        let other = try await FeedworkProcess.run(["run", "--wait", "50s"], in: directory)
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        #expect(
            ContinuousClock.now - started < .seconds(40),
            "the feed was given up only after \(ContinuousClock.now - started)")
        #expect(try PostgresStoreCommandTests.psql(url, "SELECT count(*) FROM \(schema).item") == "3")

        paused.send(SIGCONT)
        let woken = await paused.finish()
        #expect(woken.status != 0, "the paused pass committed after another pass of its feed: \(woken.stdout)")
        let statuses = try PostgresStoreCommandTests.psql(
            url, "SELECT string_agg(status, ',' ORDER BY id) FROM \(schema)._runs")
        #expect(statuses == "failed,ok", "\(woken.stdout)\(woken.stderr)")
    }

    @Test func aLivePassWaitingForASlowPageKeepsItsFeed() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        let holding = Holding()
        // Page 2 comes after 15 s: past the silence the server allows the pass's sessions (2 s)
        // several times over, and long enough that the run below, started 3 s in, finds the
        // pass still under way however slowly a loaded machine starts it.
        let server = try Self.server(holding: holding, hold: .seconds(15))
        defer { server.stop() }
        let directory = try Self.folder(server, url: url, schema: schema)
        defer { try? FileManager.default.removeItem(at: directory) }

        let slow = try FeedworkProcess.startCollecting(["run"], in: directory)
        defer { slow.stop(SIGKILL) }
        try await server.waitForRequests(2)
        try await Task.sleep(for: .seconds(3))  // past the silence the server allows
        let other = try await FeedworkProcess.run(["run", "--wait", "0s"], in: directory)
        #expect(
            other.status != 0 && "\(other.stdout)\(other.stderr)".contains("feed busy"),
            "\(other.stdout)\(other.stderr)")
        let finished = await slow.finish()
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        #expect(try PostgresStoreCommandTests.psql(url, "SELECT count(*) FROM \(schema).item") == "3")
    }
}
