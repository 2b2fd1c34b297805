import FeedTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `export --output` never destroys the store or another database, and writes through links,
/// FIFOs and the process's own descriptors instead of replacing them with regular files.
@Suite("Reliability: export --output targets")
struct ExportOutputSafetyTests {
    let directory: URL

    init() async throws {
        directory = try FeedworkProcess.makeFolder("output")
        try Data(#"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#.utf8)
            .write(to: directory.appendingPathComponent("data.json"))
        try Data("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func contents(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// The export of the fruit table still works, so the store is intact.
    func expectStoreReadable() async throws {
        let check = try await FeedworkProcess.run(["export", "fruit"], in: directory)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains(#""type":"apple""#))
    }

    @Test func outputOntoTheStoreIsRefusedAndLeavesItIntact() async throws {
        let before = try contents("feeds.sqlite")
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "feeds.sqlite"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is the store"), "\(result.stderr)")
        #expect(try contents("feeds.sqlite") == before)
        try await expectStoreReadable()
    }

    @Test func outputOntoTheStoreIsRefusedEvenWithForce() async throws {
        let result = try await FeedworkProcess.run(
            ["export", "fruit", "--output", "feeds.sqlite", "--force"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is the store"), "\(result.stderr)")
        try await expectStoreReadable()
    }

    @Test func outputOntoAHardLinkToTheStoreIsRefused() async throws {
        #expect(link(path("feeds.sqlite"), path("innocent.ndjson")) == 0)
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "innocent.ndjson"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is the store"), "\(result.stderr)")
        try await expectStoreReadable()
    }

    @Test func outputOntoASymlinkToTheStoreIsRefused() async throws {
        #expect(symlink("feeds.sqlite", path("out.ndjson")) == 0)
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "out.ndjson"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is the store"), "\(result.stderr)")
        try await expectStoreReadable()
    }

    @Test func outputOntoTheStoresWALNameIsRefused() async throws {
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "feeds.sqlite-wal"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is the store"), "\(result.stderr)")
        try await expectStoreReadable()
    }

    @Test func outputOntoAnotherSQLiteDatabaseNeedsForce() async throws {
        try FileManager.default.copyItem(atPath: path("feeds.sqlite"), toPath: path("other.db"))
        let before = try contents("other.db")
        let refused = try await FeedworkProcess.run(["export", "fruit", "--output", "other.db"], in: directory)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is a SQLite database; use --force"), "\(refused.stderr)")
        #expect(try contents("other.db") == before)
        let forced = try await FeedworkProcess.run(
            ["export", "fruit", "--output", "other.db", "--force"], in: directory)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(String(decoding: try contents("other.db"), as: UTF8.self).contains(#""type":"apple""#))
    }

    @Test func outputOntoAFolderIsRefused() async throws {
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: false)
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "out"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is a folder"), "\(result.stderr)")
    }

    @Test func outputThroughASymlinkReplacesItsTargetAndKeepsTheLink() async throws {
        try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: false)
        try Data("old\n".utf8).write(to: directory.appendingPathComponent("real/fruit.ndjson"))
        #expect(symlink("real/fruit.ndjson", path("fruit.ndjson")) == 0)
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "fruit.ndjson"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: path("fruit.ndjson"))
        #expect(destination == "real/fruit.ndjson", "the link is still a link")
        #expect(String(decoding: try contents("real/fruit.ndjson"), as: UTF8.self).contains(#""type":"apple""#))
    }

    @Test func outputThroughADanglingSymlinkCreatesItsTarget() async throws {
        #expect(symlink("made.ndjson", path("link.ndjson")) == 0)
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "link.ndjson"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: try contents("made.ndjson"), as: UTF8.self).contains(#""type":"apple""#))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path("link.ndjson"))) == "made.ndjson")
    }

    @Test func outputThroughASymlinkLoopIsRefused() async throws {
        #expect(symlink("b", path("a")) == 0)
        #expect(symlink("a", path("b")) == 0)
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "a"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("loop of symbolic links"), "\(result.stderr)")
    }

    @Test func outputIntoAFIFOWritesThroughThePipe() async throws {
        #expect(mkfifo(path("pipe"), 0o600) == 0)
        let fifo = path("pipe")
        // `cat` reads the pipe as a shell user would; it is stopped if no writer ever comes.
        let cat = Process()
        cat.executableURL = URL(fileURLWithPath: "/bin/cat")
        cat.arguments = [fifo]
        let received = Pipe()
        cat.standardOutput = received
        try cat.spawn()
        let reader = Task { await OwnThread.run { received.fileHandleForReading.readAllRetryingInterrupts() } }
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "pipe"], in: directory)
        let deadline = Date().addingTimeInterval(60)
        while cat.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if cat.isRunning { cat.terminate() }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: await reader.value, as: UTF8.self).contains(#""type":"apple""#))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
    }

    @Test func outputDashIsStandardOutput() async throws {
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "-"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""type":"apple""#))
        #expect(!FileManager.default.fileExists(atPath: path("-")))
    }

    @Test func outputOntoTheProcesssOwnDescriptorWritesToIt() async throws {
        let result = try await FeedworkProcess.run(["export", "fruit", "--output", "/dev/fd/1"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""type":"apple""#))
    }
}
