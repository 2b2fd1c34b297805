import Foundation
import Testing

/// A PostgreSQL cluster of one test's own (`scripts/postgres-throwaway.sh`), so that the test
/// may restart it without disturbing the tests that share the suite's server.
final class ThrowawayPostgres: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/postgres-throwaway.sh")
    }

    let url: String
    let directory: String

    /// Starts a new cluster on a free loopback port; `nil` (the test is skipped) without
    /// PostgreSQL's server binaries, a failure on CI.
    static func start() async throws -> ThrowawayPostgres? {
        guard (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.isEmpty == false else {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                Issue.record("no PostgreSQL server binaries under /usr/lib/postgresql")
            }
            return nil
        }
        let said = try await OwnThread.run { try run(["start"]) }
        func value(_ name: String) -> String? {
            guard let line = said.split(separator: "\n").first(where: { $0.hasPrefix("export \(name)=") }) else {
                return nil
            }
            return String(line.dropFirst("export \(name)=".count)).trimmingCharacters(
                in: CharacterSet(charactersIn: "'"))
        }
        guard let url = value("FEEDWORK_TEST_POSTGRES_URL"), let directory = value("FEEDWORK_TEST_POSTGRES_DIR") else {
            throw Failure(description: "postgres-throwaway.sh start said: \(said)")
        }
        return ThrowawayPostgres(url: url, directory: directory)
    }

    private init(url: String, directory: String) {
        self.url = url
        self.directory = directory
    }

    /// Stops the server (fast: its sessions are ended), waits `seconds`, and starts it again.
    ///
    /// - Returns: when the server had stopped: no session of before the restart outlived it.
    @discardableResult
    func restart(down seconds: Int = 2) async throws -> Date {
        let directory = directory
        let said = try await OwnThread.run { try Self.run(["restart", directory, String(seconds)]) }
        guard let line = said.split(separator: "\n").first(where: { $0.hasPrefix("stopped ") }),
            let seconds = Double(line.dropFirst("stopped ".count))
        else { throw Failure(description: "postgres-throwaway.sh restart said: \(said)") }
        return Date(timeIntervalSince1970: seconds)
    }

    deinit { _ = try? Self.run(["stop", directory]) }

    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        // Into a file, not a pipe: the server the script starts runs on after it (the script
        // closes the other descriptors it inherits, see `close_inherited`).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feedwork-pg-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FileHandle(forWritingTo: file)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        process.waitUntilExit()
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure(description: "postgres-throwaway.sh \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }
}
