import FeedTestSupport
import Foundation
import Testing

/// `scripts/own-warnings.sh`, which `.ci/run` runs on its build and test logs: a warning in
/// Feedwork's own code fails CI, one in a dependency does not.
@Suite("CI: warnings in Feedwork's own code")
struct OwnWarningsScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs the script on a log holding `lines`; its exit status and output.
    func check(_ lines: [String]) async throws -> (status: Int32, output: String) {
        let folder = try FeedworkProcess.makeFolder("warnings")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("build.log")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.root.appendingPathComponent("scripts/own-warnings.sh").path, log.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.spawn()
        let text = String(
            decoding: await OwnThread.run { output.fileHandleForReading.readAllRetryingInterrupts() }, as: UTF8.self)
        await process.exited()
        return (process.terminationStatus, text)
    }

    @Test func aWarningInADependencyPasses() async throws {
        let root = Self.root.path
        let result = try await check([
            "\(root)/.build/checkouts/GRDB.swift/GRDB/Core/Row.swift:12:5: warning: 'x' is deprecated",
            "warning: 'swift-distributed-tracing': found 1 file(s) which are unhandled",
            "[12/40] Compiling FeedEngine Engine.swift",
        ])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aWarningInFeedworksOwnCodeFailsNamingIt() async throws {
        let root = Self.root.path
        let warning =
            "\(root)/Sources/FeedEngine/Engine/EnginePassBackend.swift:95:13: warning: initialization of "
            + "immutable value 'path' was never used"
        let result = try await check([
            warning, warning, "\(root)/Tests/CLITests/A.swift:3:9: warning: var never mutated",
        ])
        #expect(result.status == 1)
        #expect(result.output.components(separatedBy: warning).count == 2, "each warning once: \(result.output)")
        #expect(result.output.contains("2 compiler warning(s) in Feedwork's own code"), "\(result.output)")
    }
}
