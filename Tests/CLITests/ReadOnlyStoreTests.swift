import FeedTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `export`, `list`, `price`, `runs` and `rejects` only read: they work on a store in a folder nobody can write (where not
/// even SQLite's `-shm` can be created) and never create a store.
@Suite("Reliability: reading a read-only store")
struct ReadOnlyStoreTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("readonly")
        try Data(#"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#.utf8)
            .write(to: directory.appendingPathComponent("data.json"))
        try Data("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    /// Runs the fruit feed, folds the WAL into the store (so no `-shm` is left), then makes the
    /// store and its folder read-only.
    func makeReadOnlyStore() async throws {
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let store = directory.appendingPathComponent("feeds.sqlite").path
        let checkpoint = Process()
        checkpoint.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        checkpoint.arguments = ["sqlite3", store, "PRAGMA wal_checkpoint(TRUNCATE);"]
        checkpoint.standardOutput = FileHandle.nullDevice
        try checkpoint.spawn()
        await checkpoint.exited()
        #expect(!FileManager.default.fileExists(atPath: store + "-shm"), "no -shm is left to read through")
        #expect(chmod(store, 0o444) == 0)
        #expect(chmod(directory.path, 0o555) == 0)
    }

    /// `feedwork arguments...` as a user without write access: root is switched to `nobody`,
    /// since permissions do not stop root.
    func runWithoutWriteAccess(_ arguments: [String]) async throws -> FeedworkProcess.Result {
        guard geteuid() == 0 else { return try await FeedworkProcess.run(arguments, in: directory) }
        return try await FeedworkProcess.run(
            arguments, in: directory,
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    }

    func restore() { chmod(directory.path, 0o755) }

    @Test func exportReadsAStoreInAFolderNobodyCanWrite() async throws {
        try await makeReadOnlyStore()
        defer { restore() }
        let result = try await runWithoutWriteAccess(["export", "fruit"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""type":"apple""#))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "data.json", "feeds.sqlite", "feeds.yaml",
            ])
    }

    @Test func listReadsAStoreInAFolderNobodyCanWrite() async throws {
        try await makeReadOnlyStore()
        defer { restore() }
        let result = try await runWithoutWriteAccess(["list"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("fruit 1"), "\(result.stdout)")
    }

    @Test func priceReadsAStoreInAFolderNobodyCanWrite() async throws {
        try CurrencyFixtureFiles.copy(into: directory)
        try Data(
            """
            feeds:
              - { name: fx, adapter: currency, currencies: { url: list.json }, rates: { url: live.json } }
            """.utf8
        ).write(to: directory.appendingPathComponent("feeds.yaml"))
        try await makeReadOnlyStore()
        defer { restore() }
        let result = try await runWithoutWriteAccess(["price", "milk", "--currency", "EUR"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("total"), "\(result.stdout)")
    }

    @Test func runsAndRejectsReadAStoreInAFolderNobodyCanWrite() async throws {
        try await makeReadOnlyStore()
        defer { restore() }
        let runs = try await runWithoutWriteAccess(["runs"])
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stdout.contains("fruit  ok"), "\(runs.stdout)")
        let rejects = try await runWithoutWriteAccess(["rejects"])
        #expect(rejects.status == 0, "\(rejects.stderr)")
        #expect(rejects.stdout == "no rejects\n", "\(rejects.stdout)")
    }

    @Test func listWithoutAStoreCreatesNone() async throws {
        let result = try await FeedworkProcess.run(["list"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("never"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
    }
}
