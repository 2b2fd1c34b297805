import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed
import Testing

/// Taps that start processes of their own (`forking_tap.py`): a child holding the tap's
/// standard output must not keep a pass running, and stopping a tap stops its children.
@Suite("singer adapter: a tap's child processes")
struct SingerProcessTreeTests {
    /// The tap's and its child's process ids, once the tap wrote them to `path`.
    static func pids(at path: String) async throws -> (tap: Int32, child: Int32) {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                let ids = text.split(separator: " ").compactMap { Int32($0) }
                if ids.count == 2 { return (ids[0], ids[1]) }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()
    }

    /// Whether `pid` is a running process: a zombie is not (an orphan's is reaped by whoever
    /// adopted it, which may never happen in a container).
    static func running(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return true }
        return !stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Whether `pid` stops running within 60 seconds.
    static func ends(_ pid: Int32) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while running(pid) {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    /// A fresh pid file's path, and a cleanup that kills whatever the tap left behind.
    static func pidFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tap-\(UUID().uuidString).pid").path
    }

    static func cleanUp(_ path: String) {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for pid in text.split(separator: " ").compactMap({ Int32($0) }) where pid > 1 { _ = kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    @Test(.timeLimit(.minutes(10)))
    func aTapThatExitsWhileItsChildHoldsItsOutputCompletesAndTheChildIsStopped() async throws {
        let pidFile = Self.pidFile()
        defer { Self.cleanUp(pidFile) }
        // The child sleeps 600 s with the tap's output open; the pass ends with the tap, long
        // before `tap_timeout`, with the tap's own status.
        let harness = try SingerFeedTest.harness(
            "forking_tap.py", arguments: ["--pid-file", pidFile], "    tap_timeout: 10m")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("users") == 1)
        #expect(try await Self.ends(try await Self.pids(at: pidFile).child))
    }

    @Test(.timeLimit(.minutes(10)))
    func aChildOutOfTheTapsGroupHoldingItsOutputIsStoppedWhenTheTapExits() async throws {
        let pidFile = Self.pidFile()
        defer { Self.cleanUp(pidFile) }
        // The child leaves the tap's process group (a session of its own) but keeps the tap's
        // marker in its environment: it is stopped with the tap's group, and the pass ends with
        // the tap, long before `tap_timeout`.
        let harness = try SingerFeedTest.harness(
            "forking_tap.py", arguments: ["--pid-file", pidFile, "--escape"], "    tap_timeout: 10m")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("users") == 1)
        #expect(try await Self.ends(try await Self.pids(at: pidFile).child))
    }

    @Test(.timeLimit(.minutes(10)), arguments: [Int32(0), 3])
    func aChildOutOfFeedworksReachHoldingItsOutputFailsThePassAtTheTimeoutWithTheTapsStatus(
        status: Int32
    ) async throws {
        let pidFile = Self.pidFile()
        defer { Self.cleanUp(pidFile) }
        // The child leaves the tap's process group (a session of its own) and its environment
        // (the tap's marker), out of Feedwork's reach: the pass still ends, at `tap_timeout` plus
        // the grace, and says how the tap ended (a limit the tap itself, which exits at once,
        // keeps on a loaded machine).
        let harness = try SingerFeedTest.harness(
            "forking_tap.py",
            arguments: ["--pid-file", pidFile, "--escape", "--clean-env", "--status", "\(status)"],
            "    tap_timeout: 10s")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = try #require(report.error)
        #expect(
            error.contains(
                "exited with status \(status), but a process it started held its standard output open past its timeout (10s) and was stopped"
            ), "\(error)")
        #expect(!error.contains("ran longer than its timeout"))
        #expect(try await harness.tableNames().contains("users") == false)
    }

    @Test(.timeLimit(.minutes(10)))
    func aTapStoppedAtItsTimeoutTakesItsChildWithIt() async throws {
        let pidFile = Self.pidFile()
        defer { Self.cleanUp(pidFile) }
        let harness = try SingerFeedTest.harness(
            "forking_tap.py", arguments: ["--pid-file", pidFile, "--linger"], "    tap_timeout: 1s")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("ran longer than its timeout (1s) and was stopped") == true)
        let pids = try await Self.pids(at: pidFile)
        #expect(try await Self.ends(pids.tap))
        #expect(try await Self.ends(pids.child))
    }

    @Test(.timeLimit(.minutes(10)))
    func cancellingThePassStopsTheTapAndItsChild() async throws {
        let pidFile = Self.pidFile()
        defer { Self.cleanUp(pidFile) }
        let harness = try SingerFeedTest.harness("forking_tap.py", arguments: ["--pid-file", pidFile, "--linger"])
        let run = Task { try await harness.run() }
        let pids = try await Self.pids(at: pidFile)
        #expect(Self.running(pids.child))
        run.cancel()
        let report = try #require(try await run.value.feeds.first)
        #expect(report.status == .interrupted)
        #expect(try await Self.ends(pids.tap))
        #expect(try await Self.ends(pids.child))
        #expect(try await harness.tableNames().contains("users") == false)
    }
}

/// A tap that starts a daemon (`daemonizing_tap.py`: a grandchild in a session of its own,
/// holding none of the tap's pipes): whether the tap exits or is stopped at its timeout, the
/// grandchild is gone when the pass has ended.
@Suite("singer adapter: a tap's daemon")
struct SingerDaemonTests {
    /// The grandchild's pid, once the tap wrote it to `path`.
    static func grandchild(at path: String) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let pid = Int32(text) { return pid }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()
    }

    @Test(.timeLimit(.minutes(10)))
    func aPassWhoseTapExitsLeavesNoGrandchild() async throws {
        let pidFile = SingerProcessTreeTests.pidFile()
        defer { SingerProcessTreeTests.cleanUp(pidFile) }
        let harness = try SingerFeedTest.harness(
            "daemonizing_tap.py", arguments: ["--pid-file", pidFile], "    tap_timeout: 10m")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("users") == 1)
        #expect(try await SingerProcessTreeTests.ends(try await Self.grandchild(at: pidFile)))
    }

    @Test(.timeLimit(.minutes(10)))
    func aTapStoppedAtItsTimeoutLeavesNoGrandchild() async throws {
        let pidFile = SingerProcessTreeTests.pidFile()
        defer { SingerProcessTreeTests.cleanUp(pidFile) }
        let harness = try SingerFeedTest.harness(
            "daemonizing_tap.py", arguments: ["--pid-file", pidFile, "--hang"], "    tap_timeout: 2s")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(
            report.error?.contains("ran longer than its timeout (2s) and was stopped") == true, "\(report.error ?? "")")
        #expect(try await SingerProcessTreeTests.ends(try await Self.grandchild(at: pidFile)))
    }
}
