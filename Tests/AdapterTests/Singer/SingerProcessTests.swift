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

    /// The pid the hanging tap wrote to `path`, waiting up to 10 seconds for it.
    static func pid(at path: String) async throws -> Int32 {
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let pid = Int32(text) { return pid }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()
    }

    @Test(.timeLimit(.minutes(1)))
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
        #expect(!Self.exists(try await Self.pid(at: pidFile)))
    }

    @Test(.timeLimit(.minutes(1)))
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
        #expect(!Self.exists(try await Self.pid(at: pidFile)))
    }

    @Test(.timeLimit(.minutes(1)))
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
        #expect(!Self.exists(pid))
        #expect(try await harness.rows("SELECT name FROM sqlite_master WHERE name = 'users'").isEmpty)
    }
}
