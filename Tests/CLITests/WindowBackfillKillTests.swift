import FeedKit
import FeedTestSupport
import Foundation
import Synchronization
import Testing

/// A backfill in date windows (`incremental: {window: 7d}`) commits window by window within one
/// `feedwork run`: killed in the middle, the next run resumes at the first window not
/// committed, and the windows committed are neither read again nor skipped.
@Suite("feedwork run: a backfill killed in the middle")
struct WindowBackfillKillTests {
    /// One event a day at noon for the 90 days before 2026-01-10, served for `[from, to)`; a
    /// range over 31 days is refused. The request whose `from` is `holdFrom` is answered only
    /// after 120 s, the first time.
    final class EventsAPI: Sendable {
        static let end: Int64 = 1_768_003_200  // 2026-01-10T00:00:00Z
        static let day: Int64 = 86_400
        let asked = Mutex<[String]>([])
        let holdFrom = Mutex<String?>(nil)

        static func before(_ days: Int64) -> String { CivilTime(unixSeconds: end - days * day).iso8601 }

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            let from = request.query("from") ?? ""
            asked.withLock { $0.append(from) }
            guard let start = ISO8601.parse(from).map(Int64.init),
                let end = ISO8601.parse(request.query("to") ?? "").map(Int64.init), end > start,
                end - start <= 31 * Self.day
            else { return .json(#"{"error":"at most 31 days"}"#, status: 400) }
            let items = (1...90).map { Self.end - Int64($0) * Self.day + Self.day / 2 }
                .filter { $0 >= start && $0 < end }.sorted()
                .map { #"{"id":\#($0 / Self.day),"at":"\#(CivilTime(unixSeconds: $0).iso8601)"}"# }
            let reply = LoopbackReply.json("[" + items.joined(separator: ",") + "]")
            let holds = holdFrom.withLock { hold in
                defer { if hold == from { hold = nil } }
                return hold == from
            }
            return holds ? reply.delayed(by: .seconds(120)) : reply
        }
    }

    /// The events feed, backfilling the 90 days in windows of 7; `schedule` is its `every:`
    /// line, if any.
    static func writeConfig(_ server: LoopbackServer, in directory: URL, schedule: String = "") throws {
        let yaml = """
            feeds:
              - name: events
                adapter: json
                url: \(server.url("/events"))
            \(schedule)
                entity: event
                key: id
                fields: { id: int, at: timestamp }
                incremental:
                  cursor_path: at
                  param: from
                  end_param: to
                  start: "\(EventsAPI.before(90))"
                  end: "\(EventsAPI.before(0))"
                  window: 7d
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func theNextRunResumesAtTheFirstWindowNotCommitted() async throws {
        let directory = try FeedworkProcess.makeFolder("window-kill")
        let api = EventsAPI()
        let server = try LoopbackServer { api.reply($0) }
        try Self.writeConfig(server, in: directory)

        // Window 6 of 13 is held: the process is killed while it waits, windows 1 to 5 answered.
        api.holdFrom.withLock { $0 = EventsAPI.before(55) }
        let killed = try FeedworkProcess.startCollecting(["run", "--progress-every", "100ms"], in: directory)
        let progress = CollectedOutput(killed.err)
        try await server.waitForRequests(6)
        try await progress.wait(for: "progress: events: ")
        try await progress.wait(for: "; window 6 of 13, 5 committed")
        killed.send(SIGKILL)
        await killed.process.exited()
        #expect(killed.process.terminationStatus != 0)
        let kept = try await FeedworkProcess.run(["export", "event", "--format", "ndjson"], in: directory)
        #expect(kept.stdout.split(separator: "\n").count == 35, "windows 1 to 5 committed, each in its pass")

        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("committed in 8 passes"), "\(run.stdout)")
        #expect(run.stdout.contains("read window 6 of 13 (7d)"), "\(run.stdout)")
        let starts = [90, 83, 76, 69, 62, 55] + [55, 48, 41, 34, 27, 20, 13, 6]
        #expect(api.asked.withLock { $0 } == starts.map { EventsAPI.before(Int64($0)) })
        let rows = try await FeedworkProcess.run(["export", "event", "--format", "ndjson"], in: directory)
        #expect(rows.stdout.split(separator: "\n").count == 90, "every day once: no gap, no repeat")
        withExtendedLifetime(server) {}
    }

    /// Ctrl-C while window 6 is asked for: that pass rolls back, and the summary says the
    /// passes before it committed, as does the JSON report (for scripts, which cannot read the
    /// summary's prose).
    @Test func anInterruptSaysThePassesBeforeTheOneUnderWayCommitted() async throws {
        let directory = try FeedworkProcess.makeFolder("window-interrupt")
        let api = EventsAPI()
        let server = try LoopbackServer { api.reply($0) }
        try Self.writeConfig(server, in: directory)
        api.holdFrom.withLock { $0 = EventsAPI.before(55) }
        let running = try FeedworkProcess.startCollecting(["run", "--json", "--progress", "never"], in: directory)
        let errors = CollectedOutput(running.err)
        let output = CollectedOutput(running.out)
        try await server.waitForRequests(6)
        running.send(SIGINT)
        try await errors.wait(
            for:
                "interrupted: the pass under way rolled back, those before it committed (the next run goes on after them): events (5 pass(es))"
        )
        await running.process.exited()
        #expect(running.process.terminationStatus == 130)
        try await output.wait(for: "\n}")  // the report's last line
        let report = try JSONSerialization.jsonObject(with: Data(output.text.withLock { $0 }.utf8)) as? [String: Any]
        let feed = try #require((report?["feeds"] as? [[String: Any]])?.first)
        #expect(feed["status"] as? String == "interrupted")
        #expect(feed["earlier_commits"] as? Int == 5)
        let kept = try await FeedworkProcess.run(["export", "event", "--format", "ndjson"], in: directory)
        #expect(kept.stdout.split(separator: "\n").count == 35)
        withExtendedLifetime(server) {}
    }

    /// A worker's turn of a feed is the same run of passes: each window commits in a run of its
    /// own, one after another.
    @Test func aWorkerCommitsTheBackfillWindowByWindowInOneTurn() async throws {
        let directory = try FeedworkProcess.makeFolder("window-worker")
        let api = EventsAPI()
        let server = try LoopbackServer { api.reply($0) }
        try Self.writeConfig(server, in: directory, schedule: "    every: 1h\n    spread: false")
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        let output = CollectedOutput(worker.out)
        _ = CollectedOutput(worker.err)
        try await output.wait(for: "committed in 13 passes")
        worker.send(SIGTERM)
        await worker.process.exited()
        #expect(worker.process.terminationStatus == 0)
        let runs = try await WorkerRun.all(in: directory).filter { $0.feed == "events" }.sorted { $0.id < $1.id }
        #expect(runs.map(\.status) == Array(repeating: "ok", count: 13))
        #expect(runs.map(\.inserted) == Array(repeating: 7, count: 12) + [6])
        let starts = stride(from: 90, to: 0, by: -7).map { EventsAPI.before(Int64($0)) }
        #expect(api.asked.withLock { $0 } == starts, "each window once, in order")
        withExtendedLifetime(server) {}
    }
}
