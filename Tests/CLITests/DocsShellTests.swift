import FeedTestSupport
import Foundation
import Testing

/// Every shell line of the README and the docs pages that can run offline runs, as written, in
/// one copy of the checkout, block after block and page after page in the order a reader
/// follows them (the quick start first, so later pages find its store); the lines that cannot
/// (they install, serve until stopped, reach another machine or a live API) are listed below
/// with the reason. `swift run [--package-path DIR] feedwork` runs the built binary.
@Suite("README and docs: every shell line that runs offline", .serialized)
struct DocsShellTests {
    /// A fenced `sh` block of a page: where it starts and its lines.
    struct Block: CustomStringConvertible {
        var file: String
        var line: Int
        var lines: [String]
        var description: String { "\(file):\(line)" }
    }

    /// The pages whose shell lines run, in the order they run.
    static let pagesInOrder = [
        "README.md", "docs/reference/store.md", "docs/store/schema-changes.md", "docs/adapters/built-in.md",
        "docs/tutorial.md", "docs/store/postgresql.md", "docs/worker.md", "docs/export.md", "docs/media.md",
        "docs/serve.md", "docs/testing.md", "docs/performance.md", "docs/reliability.md",
        "docs/reference/commands.md", "docs/adapters/writing-an-adapter.md", "docs/development.md",
    ]

    /// The pages with shell blocks that do not run here, and why.
    static let pagesNotRunHere: [(path: String, why: String)] = [
        ("docs/mcp.md", "feedwork mcp serves on stdin until it closes (MCPCommandTests and Tests/MCP run it)"),
        (
            "docs/adapters/from-the-scaffold.md",
            "builds a package of its own against this checkout (.ci/run runs scripts/scaffold-check.sh)"
        ),
        ("docs/adapters/reference.md", "builds or serves the DocC catalogs (.ci/run runs scripts/docc.sh)"),
    ]

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

    /// The planets feed of the singer section (docs/adapters/built-in.md), which its example block
    /// asks the reader to add.
    static let planetsFeed = """
          - name: planets                      # runs offline: the example tap in this repository
            adapter: singer
            command: [python3, Adapters/Singer/Fixtures/example_tap.py]

        """

    /// The ```sh blocks of the pages, indented ones included, in the order they run.
    static var blocks: [Block] { pagesInOrder.flatMap { blocks(of: $0) } }

    /// The ```sh blocks of the page at `path`, indented ones included.
    static func blocks(of path: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        for (index, raw) in Documentation.text(path).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if current == nil, line == "```sh" {
                current = Block(file: path, line: index + 1, lines: [])
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
            #expect(lines.contains { $0.contains(rule.text) }, "no shell line contains '\(rule.text)' any more")
        }
    }

    @Test func everyPageWithShellLinesRunsOrSaysWhyNot() async {
        let known = Set(Self.pagesInOrder + Self.pagesNotRunHere.map(\.path))
        let unlisted = Documentation.pages.filter { !known.contains($0) && !Self.blocks(of: $0).isEmpty }
        #expect(unlisted.isEmpty, "pages with ```sh blocks that DocsShellTests neither runs nor lists: \(unlisted)")
        for page in Self.pagesInOrder {
            #expect(Documentation.pages.contains(page), "\(page) is no page any more")
        }
    }

    @Test func theSingerSectionsPlanetsFeedIsTheOneAddedHere() async {
        #expect(Documentation.text("docs/adapters/built-in.md").contains(Self.planetsFeed))
    }

    @Test func everyLineThatRunsOfflineRunsAsWritten() async throws {
        let work = try FeedworkProcess.makeFolder("docs-shell")
        defer { try? FileManager.default.removeItem(at: work) }
        let checkout = work.appendingPathComponent("checkout")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        for item in ["feeds.yaml", "Adapters", "scripts"] {
            try FileManager.default.copyItem(
                at: Documentation.root.appendingPathComponent(item), to: checkout.appendingPathComponent(item))
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
        try process.spawn()
        let stdout = await OwnThread.run { out.fileHandleForReading.readAllRetryingInterrupts() }
        let stderr = await OwnThread.run { err.fileHandleForReading.readAllRetryingInterrupts() }
        await process.exited()
        return FeedworkProcess.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
