import FeedTestSupport
import Foundation
import Testing

/// The start-up hook Benchmarks/startup.sh times: with FEEDWORK_STARTUP_ONLY set, a command
/// ends where its own work would begin.
@Suite("feedwork start-up")
struct StartupCostTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("startup")
        try Data(#"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#.utf8)
            .write(to: directory.appendingPathComponent("data.json"))
    }

    func writeConfig(_ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func withTheStartupVariableACommandEndsWhereItsOwnWorkWouldBegin() throws {
        try writeConfig("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n")
        let result = try FeedworkProcess.run(["run"], in: directory, environment: ["FEEDWORK_STARTUP_ONLY": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
        // The command line is still parsed and checked first.
        let wrong = try FeedworkProcess.run(
            ["run", "--no-such-option"], in: directory, environment: ["FEEDWORK_STARTUP_ONLY": "1"])
        #expect(wrong.status == 2, "\(wrong.stderr)")
    }
}
