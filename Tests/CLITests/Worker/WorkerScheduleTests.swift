import FeedEngine
import FeedTestSupport
import Foundation
import Testing

/// `feedwork worker` on one SQLite store: feeds run as often as their schedules say, one pass
/// of a feed at a time, each pass committed.
@Suite("feedwork worker: schedules")
struct WorkerScheduleTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("worker-schedule")
    }

    @Test func tenFeedsEveryOneToThreeSecondsRunTheExpectedNumberOfTimes() async throws {
        let server = try WorkerConfig.server()
        let feeds = (1...10).map { (name: "f\($0)", every: "\($0 % 3 + 1)s") }
        try WorkerConfig.write(
            feeds: feeds, server: server, directory: directory, header: "defaults: { concurrency: 4 }\n")
        let worker = try FeedworkProcess.startCollecting(["worker", "--json"], in: directory)
        try await Task.sleep(for: .seconds(20))
        worker.send(SIGTERM)
        let stoppedAt = Date()
        let result = await worker.finish()
        #expect(result.status == 0, "\(result.stderr)")

        let runs = try await WorkerRun.all(in: directory)
        let firstStart = try #require(runs.map(\.started).min())
        for feed in feeds {
            let every = Double(feed.every.dropLast()) ?? 1
            let ofFeed = runs.filter { $0.feed == feed.name }
            // Due at once, then every `every` seconds until the worker was stopped: never more
            // often, and not far less (a loaded machine running the whole suite has left the
            // worker 6 passes short of 20 in 20 s; a stalled schedule would leave it at 1).
            let expected = Int((stoppedAt.timeIntervalSince(firstStart) / every).rounded(.down)) + 1
            #expect(
                ofFeed.count <= expected + 1 && ofFeed.count >= expected / 2,
                "\(feed.name) every \(feed.every): \(ofFeed.count) runs, expected \(expected)")
            #expect(ofFeed.allSatisfy { $0.status == "ok" }, "\(feed.name): \(ofFeed.map(\.status))")
        }
        #expect(WorkerRun.overlaps(runs).isEmpty, "\(WorkerRun.overlaps(runs))")
        // Every pass changed its feed's three rows and committed them: the last pass's values are stored.
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == runs.count, "one line per finished pass")
        let export = try await FeedworkProcess.run(
            ["export", "item", "--format", "ndjson", "--include-meta"], in: directory)
        #expect(export.stdout.split(separator: "\n").count == 30, "\(export.stdout)")
        for line in export.stdout.split(separator: "\n") {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let feed = try #require(row["_feed"] as? String)
            #expect(row["pass"] as? Int == runs.filter { $0.feed == feed }.count, "\(row)")
        }
    }

    @Test func aSecondWorkerOnASQLiteStoreSaysTheStoreIsInUse() async throws {
        let server = try WorkerConfig.server()
        try WorkerConfig.write(feeds: [("f1", "1h")], server: server, directory: directory)
        let first = try FeedworkProcess.startCollecting(["worker"], in: directory)
        defer { first.stop(SIGTERM) }
        try await server.waitForRequests(1)
        let second = try await FeedworkProcess.run(["worker"], in: directory)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("in use"), "\(second.stderr)")
    }

    @Test func listShowsEachFeedsScheduleAndNextRun() async throws {
        let server = try WorkerConfig.server()
        try WorkerConfig.write(feeds: [("f1", "1h")], server: server, directory: directory)
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        try await server.waitForRequests(1)
        try await Task.sleep(for: .seconds(0.5))
        worker.send(SIGTERM)
        _ = await worker.finish()
        let list = try await FeedworkProcess.run(["list", "--json"], in: directory)
        let feeds = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let feed = try #require(feeds.first)
        #expect(feed["schedule"] as? String == "every 1h")
        let lastRun = try #require((feed["last_run"] as? String).flatMap(Timestamp.date))
        let nextRun = try #require((feed["next_run"] as? String).flatMap(Timestamp.date))
        #expect(abs(nextRun.timeIntervalSince(lastRun) - 3600) < 5, "next run an hour after the last: \(feed)")
        #expect(feed["worker"] is NSNull, "no worker holds it between passes: \(feed)")
    }

    @Test func aNewFeedIsFirstDueAtItsSlotInItsIntervalNotAtOnce() async throws {
        let server = try WorkerConfig.server()
        try WorkerConfig.write(feeds: [("f1", "1h")], server: server, directory: directory, spread: true)
        let started = Date()
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        // Until the worker has planned the feed (`list` fails while the worker creates the store).
        var nextRun: Date?
        let deadline = Date().addingTimeInterval(60)
        while nextRun == nil, Date() < deadline {
            let list = try await FeedworkProcess.run(["list", "--json"], in: directory)
            let feeds = try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
            nextRun = (feeds?.first?["next_run"] as? String).flatMap(Timestamp.date)
            if nextRun == nil { try await Task.sleep(for: .seconds(0.2)) }
        }
        let listed = Date()
        worker.send(SIGTERM)
        let result = await worker.finish()
        #expect(result.status == 0, "\(result.stderr)")

        let due = try #require(nextRun, "the worker never planned f1")
        // At its offset in the hour, to the millisecond or two the worker's clock (the wall clock
        // at its start, then a monotonic one) takes to bring a wall-clock time over.
        let offset = FeedSchedule.offset(ofFeed: "f1", every: .hours(1)).milliseconds
        let milliseconds = Int64((due.timeIntervalSince1970 * 1000).rounded())
        let apart = abs((milliseconds - offset + 1_800_000) % 3_600_000 - 1_800_000)
        #expect(apart <= 5, "f1 due at \(Timestamp.string(due)), its offset in the hour \(offset) ms")
        #expect(due >= started.addingTimeInterval(-1) && due <= started.addingTimeInterval(3600), "\(due)")
        if due > listed { #expect(server.requestCount == 0, "no pass before its slot") }
    }

    @Test func aFeedWhoseCachedResponseIsStillFreshIsNotFetchedAgainEarly() async throws {
        let server = try WorkerConfig.server()
        try WorkerConfig.write(feeds: [("f1", "1s")], server: server, directory: directory)
        var yaml = try String(contentsOf: directory.appendingPathComponent("feeds.yaml"), encoding: .utf8)
        yaml += "    max_age: 1h\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        // Until three passes are recorded (reading fails while the worker creates the store).
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let listed = try await FeedworkProcess.run(["runs", "--json"], in: directory)
            let runs = try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any]
            if listed.status == 0, let runs, runs.count >= 3 { break }
            try await Task.sleep(for: .seconds(0.2))
        }
        worker.send(SIGTERM)
        let result = await worker.finish()

        #expect(result.status == 0, "\(result.stderr)")
        let runs = try await WorkerRun.all(in: directory)
        #expect(runs.count >= 3, "a pass every second: \(runs.count)")
        #expect(server.requestCount == 1, "later passes read the cached response younger than max_age")
    }

    @Test func aPassLineShowsThePassesNotes() async throws {
        let server = try WorkerConfig.server()
        try WorkerConfig.write(feeds: [("f1", "1h")], server: server, directory: directory)
        var yaml = try String(contentsOf: directory.appendingPathComponent("feeds.yaml"), encoding: .utf8)
        yaml += "    filter: \"id>1\"\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let worker = try FeedworkProcess.startCollecting(["worker"], in: directory)
        let deadline = Date().addingTimeInterval(60)
        // Until the first pass is recorded as finished (`runs` fails while the worker creates the store).
        while Date() < deadline {
            let runs = try await FeedworkProcess.run(["runs", "--json"], in: directory)
            if runs.status == 0, runs.stdout.contains(#""ok""#) { break }
            try await Task.sleep(for: .seconds(0.2))
        }
        worker.send(SIGTERM)
        let result = await worker.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first, "\(result.stdout)")
        #expect(line.contains("[f1] ok: 2 new"), "\(line)")
        #expect(line.contains("; notes: 1 record(s) filtered out by filter"), "\(line)")
    }

    @Test func aConfigWithoutAnyScheduleIsAUsageError() async throws {
        try Data("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["worker"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("has a schedule"), "\(result.stderr)")
    }
}
