import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed
import Testing

@Suite("singer adapter: stopping the tap")
struct SingerProcessTests {
    /// Whether a process with this id exists (a zombie counts: it has not been waited for).
    static func exists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

    /// Whether the process with this id is gone, waiting up to 60 s for it: the pass has ended
    /// it, but Foundation's `Process` reaps it on a queue of its own, which a loaded machine may
    /// run seconds later (the zombie counts until then).
    static func isGone(_ pid: Int32) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while exists(pid), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        return !exists(pid)
    }

    /// The pid the hanging tap wrote to `path`, waiting up to 60 seconds for it.
    static func pid(at path: String) async throws -> Int32 {
        for _ in 0..<1200 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let pid = Int32(text) { return pid }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()
    }

    @Test(.timeLimit(.minutes(10)))
    func aTapThatRunsPastItsTimeoutIsStoppedAndThePassFails() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("tap-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let harness = try SingerFeedTest.harness(
            "hanging_tap.py", arguments: ["--pid-file", pidFile], "    tap_timeout: 1s")
        // The pass ends (the test's time limit guards against a hang) and says why.
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("ran longer than its timeout (1s) and was stopped") == true)
        #expect(try await harness.rows("SELECT name FROM sqlite_master WHERE name = 'users'").isEmpty)
        #expect(try await Self.isGone(try await Self.pid(at: pidFile)))
    }

    @Test(.timeLimit(.minutes(10)))
    func aTapThatIgnoresSIGTERMIsKilled() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("tap-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let harness = try SingerFeedTest.harness(
            "hanging_tap.py", arguments: ["--pid-file", pidFile, "--ignore-term"], "    tap_timeout: 1s")
        // One second, then three of grace between SIGTERM and SIGKILL; the time limit guards
        // against a tap that is never killed.
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("ran longer than its timeout (1s) and was stopped") == true)
        #expect(try await Self.isGone(try await Self.pid(at: pidFile)))
    }

    @Test(.timeLimit(.minutes(10)))
    func cancellingThePassKillsTheTapAndRollsBack() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("tap-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let harness = try SingerFeedTest.harness("hanging_tap.py", arguments: ["--pid-file", pidFile])
        let run = Task { try await harness.run() }
        let pid = try await Self.pid(at: pidFile)
        #expect(Self.exists(pid))
        run.cancel()
        let report = try #require(try await run.value.feeds.first)
        #expect(report.status == .interrupted)
        #expect(try await Self.isGone(pid))
        #expect(try await harness.rows("SELECT name FROM sqlite_master WHERE name = 'users'").isEmpty)
    }
}
