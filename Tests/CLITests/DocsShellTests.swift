import FeedTestSupport
import Foundation
import Testing

/// Every shell line of the README that can run offline runs, as written, in a copy of the
/// checkout, block after block in the README's order (as a reader follows it); the lines that
/// cannot (they install, serve until stopped, reach another machine or a live API) are listed
/// below with the reason. `swift run [--package-path DIR] feedwork` runs the built binary.
@Suite("README: every shell line that runs offline", .serialized)
struct ReadmeShellTests {
    /// A fenced `sh` block of the README: where it starts and its lines.
    struct Block: CustomStringConvertible {
        var line: Int
        var lines: [String]
        var description: String { "README.md:\(line)" }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let readme = (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The lines that do not run here, by a text they contain, and why.
    static let notRunHere: [(text: String, why: String)] = [
        ("swift test", "the test suite itself"),
        ("apt-get install", "installs system packages, as .ci/run does"),
        ("scripts/install.sh", ".ci/run installs a release build and runs it"),
        ("feedwork serve", "serves until stopped (ServeCommandTests start it)"),
        ("FEEDWORK_SERVE_TOKEN", "for a server that is not started here"),
        ("curl -G http://127.0.0.1:8080/", "asks a running feedwork serve (ServeSQLTests run the statement)"),
        ("feedwork worker", "runs until stopped (the worker tests start it)"),
        ("su postgres", "needs the system's PostgreSQL cluster"),
        ("@localhost:5432/feeds", "the system cluster's store"),
        ("PGPASSWORD=...", "the system cluster's store"),
        ("MY_API_TOKEN=", "records a live API"),
        ("--feed my-api", "a feed of the reader's own config"),
        ("target-jsonl", "a Singer target from PyPI (SingerExportTests run it)"),
        ("mv state.json.new", "follows the Singer target's lines"),
        ("Benchmarks/run.sh", "the benchmark takes minutes"),
        ("feedwork drop", "drops an entity and a feed of the reader's store (SchemaPlanDropCommandTests run it)"),
    ]

    /// The planets feed of the singer section, which its example block asks the reader to add.
    static let planetsFeed = """
          - name: planets                      # runs offline: the example tap in this repository
            adapter: singer
            command: [python3, Adapters/Singer/Fixtures/example_tap.py]

        """

    /// The README's ```sh blocks, indented ones included.
    static var blocks: [Block] {
        var blocks: [Block] = []
        var current: Block?
        for (index, raw) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if current == nil, line == "```sh" {
                current = Block(line: index + 1, lines: [])
            } else if let block = current, line == "```" {
                blocks.append(block)
                current = nil
            } else if current != nil, !line.isEmpty {
                current?.lines.append(line)
            }
        }
        return blocks
    }

    /// `line` with `swift run [--package-path DIR] feedwork` as `feedwork`.
    static func translated(_ line: String) -> String {
        line.replacing(/swift run (--package-path ("[^"]*"|\S+) )?feedwork/, with: "feedwork")
    }

    static func skipReason(_ line: String) -> String? {
        notRunHere.first { line.contains($0.text) }?.why
    }

    @Test func noLineNeedsSudo() async {
        let lines = Self.blocks.flatMap(\.lines)
        #expect(lines.count > 40)
        #expect(!lines.contains { $0.hasPrefix("sudo ") || $0.contains(" sudo ") }, "a root shell has no sudo")
    }

    @Test func everyReasonToSkipStillMatchesALine() async {
        let lines = Self.blocks.flatMap(\.lines)
        for rule in Self.notRunHere {
            #expect(lines.contains { $0.contains(rule.text) }, "no README line contains '\(rule.text)' any more")
        }
    }

    @Test func theREADMEsPlanetsFeedIsTheOneAddedHere() async {
        #expect(Self.readme.contains(Self.planetsFeed))
    }

    @Test func everyLineThatRunsOfflineRunsAsWritten() async throws {
        let work = try FeedworkProcess.makeFolder("readme")
        defer { try? FileManager.default.removeItem(at: work) }
        let checkout = work.appendingPathComponent("checkout")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        for item in ["feeds.yaml", "Adapters", "scripts"] {
            try FileManager.default.copyItem(
                at: Self.root.appendingPathComponent(item), to: checkout.appendingPathComponent(item))
        }
        let hasPostgres = FileManager.default.fileExists(atPath: "/usr/lib/postgresql")
        var ran = 0
        for block in Self.blocks {
            if block.lines.contains(where: { $0.contains("postgres-throwaway.sh start") }), !hasPostgres {
                #expect(ProcessInfo.processInfo.environment["CI"] == nil, "\(block): needs Debian's postgresql")
                continue
            }
            if block.lines.contains(where: { $0.contains("--feed planets") }) {
                let config = checkout.appendingPathComponent("feeds.yaml")
                let text = try String(contentsOf: config, encoding: .utf8)
                try Data((text + "\n" + Self.planetsFeed).utf8).write(to: config)
            }
            if block.lines.first?.hasPrefix("$ ") == true {
                try await expectTranscript(block, in: checkout)
                ran += 1
                continue
            }
            let script = block.lines.map { line in
                Self.skipReason(line).map { "# not run here (\($0)): \(line)" } ?? Self.translated(line)
            }
            guard script.contains(where: { !$0.hasPrefix("#") }) else { continue }
            let result = try await Self.bash(script.joined(separator: "\n"), in: checkout, home: work)
            #expect(
                result.status == 0, "\(block):\n\(script.joined(separator: "\n"))\n\(result.stdout)\(result.stderr)")
            ran += 1
        }
        #expect(ran >= 10)
    }

    /// A block that shows a command (`$ ...`) and what it prints: the command prints that.
    func expectTranscript(_ block: Block, in directory: URL) async throws {
        let command = Self.translated(String(block.lines[0].dropFirst(2)))
        let result = try await Self.bash(command, in: directory, home: directory)
        let shown = block.lines.dropFirst().joined(separator: "\n")
        let printed = (result.stdout + result.stderr).split(separator: "\n").filter { !$0.isEmpty }
            .joined(separator: "\n")
        #expect(printed == shown, "\(block): `\(command)` prints:\n\(printed)")
    }

    /// Runs `script` with bash (`-euo pipefail`) in `directory`, the built `feedwork` first on
    /// `PATH`.
    static func bash(_ script: String, in directory: URL, home: URL) async throws -> FeedworkProcess.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euo", "pipefail", "-c", script]
        process.currentDirectoryURL = directory
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = [
            "PATH": FeedworkProcess.executable.deletingLastPathComponent().path + ":" + path, "HOME": home.path,
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = await OwnThread.run { out.fileHandleForReading.readAllRetryingInterrupts() }
        let stderr = await OwnThread.run { err.fileHandleForReading.readAllRetryingInterrupts() }
        await process.exited()
        return FeedworkProcess.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
