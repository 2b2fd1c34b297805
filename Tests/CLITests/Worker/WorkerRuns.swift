import FeedEngine
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// A store's `_runs` as `feedwork runs --json` prints them, for the worker tests.
struct WorkerRun: Sendable {
    var id: Int64
    var feed: String
    var status: String
    var started: Date
    var finished: Date?
    var inserted: Int
    var updated: Int

    /// Every run of the store of the config in `directory`.
    static func all(in directory: URL) async throws -> [WorkerRun] {
        let result = try await FeedworkProcess.run(["runs", "--json", "--limit", "100000"], in: directory)
        try #require(result.status == 0, "\(result.stderr)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return try objects.map { object in
            let started = (object["started_at"] as? String).flatMap(Timestamp.date)
            return WorkerRun(
                id: Int64(try #require(object["run"] as? Int)), feed: try #require(object["feed"] as? String),
                status: try #require(object["status"] as? String), started: try #require(started),
                finished: (object["finished_at"] as? String).flatMap(Timestamp.date),
                inserted: object["inserted"] as? Int ?? 0, updated: object["updated"] as? Int ?? 0)
        }
    }

    /// Waits (60 s at most) until `feed` of the config in `directory` has a finished run
    /// (`runs` fails until the worker has made the store); records an issue if it never has.
    static func waitForFinishedRun(in directory: URL, of feed: String) async throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let runs = try await FeedworkProcess.run(["runs", "--feed", feed, "--json"], in: directory)
            if runs.status == 0, runs.stdout.contains(#""finished_at""#) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("\(feed) never ran")
    }

    /// The pairs of runs of one feed whose intervals overlap: a run that never finished is
    /// taken to last until `openUntil` (when its process was killed).
    static func overlaps(_ runs: [WorkerRun], openUntil: Date = .distantFuture) -> [String] {
        var found: [String] = []
        for (feed, ofFeed) in Dictionary(grouping: runs, by: \.feed) {
            let sorted = ofFeed.sorted { $0.started < $1.started }
            for (earlier, later) in zip(sorted, sorted.dropFirst())
            where later.started < (earlier.finished ?? openUntil) {
                let ended = earlier.finished.map { "ended \($0)" } ?? "never ended, taken to end \(openUntil)"
                found.append(
                    "\(feed): run \(later.id) started \(later.started), before run \(earlier.id) "
                        + "(\(earlier.status), started \(earlier.started)) ended; it \(ended)")
            }
        }
        return found
    }
}

/// `count` json feeds `f1`...`fN` of `item` rows, each from its own path of `server`, written
/// to `feeds.yaml` in `directory` under `store` and `defaults`. Each is due at once when a
/// worker first plans it, then every `every`, unless `spread` (then at its slot in its interval).
enum WorkerConfig {
    static func write(
        feeds: [(name: String, every: String)], server: LoopbackServer, directory: URL, header: String = "",
        spread: Bool = false
    ) throws {
        var yaml = header + "feeds:\n"
        for feed in feeds {
            yaml += """
                  - name: \(feed.name)
                    adapter: json
                    url: \(server.url("/\(feed.name)"))
                    every: \(feed.every)
                    spread: \(spread)
                    records: items
                    entity: item
                    key: id
                    fields: { id: int, pass: int }

                """
        }
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    /// A server answering every path with three items whose `pass` is how many requests that
    /// path had, so every pass changes the feed's rows; each answer comes after `delay`.
    static func server(delay: Duration = .zero) throws -> LoopbackServer {
        let counts = Counts()
        return try LoopbackServer { request in
            let pass = counts.next(request.path)
            var reply = LoopbackReply.json(
                #"{"items":[{"id":1,"pass":\#(pass)},{"id":2,"pass":\#(pass)},{"id":3,"pass":\#(pass)}]}"#)
            reply.delay = delay
            return reply
        }
    }

    private final class Counts: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        func next(_ path: String) -> Int {
            counts.withLock { counts in
                counts[path, default: 0] += 1
                return counts[path] ?? 0
            }
        }
    }
}
