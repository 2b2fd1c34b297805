import FeedTestSupport
import Foundation
import Testing

/// `scripts/adapters-public-only.sh`, which `.ci/run` runs after its build: an adapter that uses
/// a FeedKit declaration an adapter in another package could not see fails CI.
@Suite("CI: adapters use FeedKit's public API alone")
struct AdaptersPublicOnlyScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs the script on `adapters` (the repository's own when `nil`), against this build's
    /// modules; its exit status and output.
    func check(_ adapters: URL?) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments =
            [Self.root.appendingPathComponent("scripts/adapters-public-only.sh").path]
            + (adapters.map { [$0.path] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment["FEEDWORK_MODULES"] = Self.root.appendingPathComponent(".build/debug/Modules").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.runSerialized()
        let text = String(
            decoding: await OwnThread.run { output.fileHandleForReading.readAllRetryingInterrupts() }, as: UTF8.self)
        await process.exited()
        return (process.terminationStatus, text)
    }

    /// A folder of adapters holding `Probe/Probe.swift` with `source`.
    func adapters(_ source: String) throws -> URL {
        let folder = try FeedworkProcess.makeFolder("public-only")
        let probe = folder.appendingPathComponent("Probe")
        try FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        try Data(source.utf8).write(to: probe.appendingPathComponent("Probe.swift"))
        return folder
    }

    @Test func theBuiltInAdaptersPass() async throws {
        let result = try await check(nil)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func anAdapterUsingAPackageDeclarationFailsNamingIt() async throws {
        let folder = try adapters("import FeedKit\n\nfunc key(_ entry: CachedResponse) -> String { entry.key }\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await check(folder)
        #expect(result.status == 1)
        #expect(result.output.contains("Probe.swift:3"), "\(result.output)")
        #expect(result.output.contains("the Probe adapter does not build as a package of its own would"))
    }

    @Test func anAdapterUsingThePublicAPIPasses() async throws {
        let folder = try adapters(
            "import FeedKit\n\nfunc key(_ text: String) -> String { SHA256.hexDigest(text.utf8) }\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await check(folder)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aTestableImportFails() async throws {
        let folder = try adapters("@testable import FeedKit\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await check(folder)
        #expect(result.status == 1)
        #expect(result.output.contains("@testable"), "\(result.output)")
    }
}
