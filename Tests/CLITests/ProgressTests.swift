import FeedTestSupport
import Foundation
import Testing

/// Progress on stderr while a run goes on: periodic plain lines off a terminal, redrawn lines
/// with `--progress always`, nothing with `--progress never`; stdout keeps only the result.
@Suite("feedwork run: progress")
struct ProgressTests {
    let directory: URL
    let server: LoopbackServer

    /// A feed of six pages of two records, each page answered after 300 ms.
    init() throws {
        directory = try FeedworkProcess.makeFolder("progress")
        server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let next = page < 6 ? #","next":"/items?page=\#(page + 1)""# : ""
            var reply = LoopbackReply.json(#"{"items":[{"id":\#(page * 10)},{"id":\#(page * 10 + 1)}]\#(next)}"#)
            reply.delay = .milliseconds(300)
            return reply
        }
        let yaml = "feeds:\n" + PagedItemsFeed.yaml(name: "slow", url: server.url("/items"))
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func offATerminalPlainLinesComeEveryInterval() async throws {
        let result = try await FeedworkProcess.run(["run", "--progress-every", "200ms"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("progress: slow: ") }
        #expect(lines.count >= 3, "\(result.stderr)")
        #expect(lines.last?.contains("record(s)") == true)
        #expect(!result.stderr.contains("\u{1B}["), "no terminal codes in a pipe")
        #expect(result.stdout.hasPrefix("feed "), "stdout holds the summary only")
    }

    @Test func alwaysRedrawsTheLinesInPlace() async throws {
        let result = try await FeedworkProcess.run(["run", "--progress", "always"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\u{1B}[1A\u{1B}[2K"))
        #expect(result.stderr.contains("slow: "))
        #expect(result.stderr.contains("[slow] ok: 12 new"), "a finished feed's line stays above")
    }

    @Test func neverWritesNothing() async throws {
        let result = try await FeedworkProcess.run(
            ["run", "--progress", "never", "--progress-every", "200ms"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }
}
