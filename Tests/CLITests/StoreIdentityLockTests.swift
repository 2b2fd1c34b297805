import FeedEngine
import FeedKit
import FeedStoreSQLite
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The run lock belongs to the store file, not to its name: a second `feedwork run` reaching the
/// same store through a symlink or a hard link is held off like one through the same path, and
/// waits no longer than `--wait`.
@Suite("Reliability: one run per store file, whatever its name")
struct StoreIdentityLockTests {
    /// A config beside the slow store's whose `store:` is `name`, made by `makeLink`.
    func linkedConfig(_ store: ConcurrentRunTests.SlowStore, name: String, makeLink: (String, String) -> Int32)
        throws -> String
    {
        let directory = store.directory
        #expect(
            makeLink(directory.appendingPathComponent("feeds.sqlite").path, directory.appendingPathComponent(name).path)
                == 0)
        let config = try String(contentsOf: directory.appendingPathComponent("feeds.yaml"), encoding: .utf8)
        try Data("store: \(name)\n\(config)".utf8).write(to: directory.appendingPathComponent("linked.yaml"))
        return "linked.yaml"
    }

    /// Starts a slow run through feeds.sqlite, then a run through `config` with a short wait,
    /// then interrupts the first run.
    func secondRunThrough(_ store: ConcurrentRunTests.SlowStore, config: String) async throws
        -> FeedworkProcess.Result
    {
        let first = try await store.startSlowRun()
        let started = Date()
        let second = try await FeedworkProcess.run(
            ["run", "-c", config, "--wait", "300ms"], in: store.directory)
        let seconds = Date().timeIntervalSince(started)
        // The first run would hold the store for 60 s, far longer than the second can take on a
        // loaded machine: the second gave up after --wait, not after the first.
        #expect(first.isRunning, "the second run ended while the first still held the store (\(seconds) s)")
        first.interrupt()
        while first.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(first.terminationStatus == 130, "the first run was interrupted, not failed")
        return second
    }

    @Test func aRunThroughASymlinkToTheStoreIsHeldOffByTheLock() async throws {
        let store = try ConcurrentRunTests.SlowStore(delay: .seconds(60))
        try await store.prepare()
        let config = try linkedConfig(store, name: "other-name.sqlite") { symlink($0, $1) }
        let second = try await secondRunThrough(store, config: config)
        #expect(second.status == 1)
        #expect(second.stderr.contains("store in use"), "\(second.stderr)")
    }

    @Test func aRunThroughAHardLinkToTheStoreIsHeldOffAndTheStoreStaysIntact() async throws {
        let store = try ConcurrentRunTests.SlowStore(delay: .seconds(60))
        try await store.prepare()
        let config = try linkedConfig(store, name: "hard-link.sqlite") { link($0, $1) }
        let second = try await secondRunThrough(store, config: config)
        #expect(second.status == 1)
        #expect(second.stderr.contains("store in use"), "\(second.stderr)")
        let check = try await Store(SQLiteStore(path: store.directory.appendingPathComponent("feeds.sqlite").path))
            .query("PRAGMA integrity_check")
        #expect(check.first?.values.first == .text("ok"))
    }
}
