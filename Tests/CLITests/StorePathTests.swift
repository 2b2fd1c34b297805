import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `store:` that is a folder, a symlink loop or a device is refused by `validate` (and every
/// command) at the `store:` line, before anything creates a file beside it.
@Suite("Reliability: store paths that are not files")
struct StorePathTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("storepath")
        try Data(#"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#.utf8)
            .write(to: directory.appendingPathComponent("data.json"))
    }

    func configure(store: String) throws {
        try Data("store: \(store)\nfeeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    func files(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aStoreThatIsAFolderIsReportedAtTheStoreLine() async throws {
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("data"), withIntermediateDirectories: false)
        try configure(store: "data")
        let result = try await FeedworkProcess.run(["validate"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("feeds.yaml:1:8: error: the store"), "\(result.stderr)")
        #expect(result.stderr.contains("is a folder"), "\(result.stderr)")
    }

    @Test func runOnAStoreThatIsAFolderLeavesNoFileBehind() async throws {
        let data = directory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
        try configure(store: "data")
        let before = try files(directory)
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is a folder"), "\(result.stderr)")
        #expect(try files(directory) == before)
        #expect(try files(data).isEmpty)
    }

    @Test func aStoreThatIsASymlinkLoopIsReportedAtTheStoreLine() async throws {
        #expect(symlink("loop.sqlite", directory.appendingPathComponent("loop.sqlite").path) == 0)
        try configure(store: "loop.sqlite")
        let before = try files(directory)
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("feeds.yaml:1:8: error:"), "\(result.stderr)")
        #expect(result.stderr.contains("loop of symbolic links"), "\(result.stderr)")
        #expect(try files(directory) == before)
    }

    @Test func aStoreThatIsADeviceIsReportedByValidate() async throws {
        try configure(store: "/dev/null")
        let result = try await FeedworkProcess.run(["validate"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("feeds.yaml:1:8: error: the store /dev/null is a device"), "\(result.stderr)")
    }
}
