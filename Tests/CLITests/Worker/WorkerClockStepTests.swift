import FeedEngine
import FeedTestSupport
import Foundation
import Testing

/// `feedwork worker` whose wall clock is stepped back an hour and forward again while it runs
/// (libfaketime, steered through a file; the monotonic clock stays real): its `every:` feed
/// keeps running, during the step and after it.
@Suite("feedwork worker: a stepped wall clock")
struct WorkerClockStepTests {
    static let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

    /// Waits (60 s at most) until `server` has had `count` more requests than `start`.
    static func waitForRequests(_ server: LoopbackServer, beyond start: Int, _ count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while server.requestCount < start + count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return true
    }

    static func run(storeLines: String) async throws {
        guard FileManager.default.fileExists(atPath: library) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("libfaketime is not installed") }
            print("skipped: libfaketime is not installed (\(library))")
            return
        }
        let directory = try FeedworkProcess.makeFolder("worker-clock-step")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try WorkerConfig.server()
        defer { server.stop() }
        try WorkerConfig.write(feeds: [("steady", "2s")], server: server, directory: directory, header: storeLines)
        let control = directory.appendingPathComponent("faketime.rc")
        func setOffset(_ offset: String) throws { try Data((offset + "\n").utf8).write(to: control, options: .atomic) }
        try setOffset("+0")
        // Through env(1), which libfaketime loads into first: set up there, it leaves the
        // environment of the feedwork it starts as it is (set up in feedwork itself, it changes
        // the environment at load, and Swift then reads no command-line arguments).
        let worker = try FeedworkProcess.startCollecting(
            ["worker"], in: directory,
            environment: [
                "LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": control.path, "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            ], launcher: ["/usr/bin/env"])
        let pid = worker.process.processIdentifier
        defer {
            // What libfaketime shares between processes, left by the killed worker.
            for name in ["faketime_shm_\(pid)", "sem.faketime_sem_\(pid)"] {
                try? FileManager.default.removeItem(atPath: "/dev/shm/" + name)
            }
        }
        let started = await Self.waitForRequests(server, beyond: 0, 2)
        var during = false
        var after = false
        if started {
            try setOffset("-1h")
            during = await Self.waitForRequests(server, beyond: server.requestCount, 3)
            try setOffset("+0")
            after = await Self.waitForRequests(server, beyond: server.requestCount, 3)
        }
        worker.send(SIGKILL)
        let output = await worker.finish()
        #expect(started, "the worker never ran its feed twice: \(output.stdout)\(output.stderr)")
        #expect(during, "no pass with the clock an hour back: \(output.stdout)\(output.stderr)")
        #expect(after, "no pass once the clock came back: \(output.stdout)\(output.stderr)")
    }

    @Test func onSQLite() async throws {
        try await Self.run(storeLines: "")
    }

    @Test func onPostgreSQL() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        try await Self.run(storeLines: "store: \(url)\nschema: \(schema)\n")
    }
}
