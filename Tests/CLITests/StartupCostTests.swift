import FeedTestSupport
import Foundation
import Testing

/// What a command costs before its own work: the start-up hook Benchmarks/startup.sh times
/// (with FEEDWORK_STARTUP_ONLY set, a command ends where its own work would begin), and
/// libcurl (30 libraries, about 5 ms of CPU), loaded by a run only when it fetches over the
/// network: early for a feed that names an http(s) URL, never for local files or --offline.
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

    @Test func withTheStartupVariableACommandEndsWhereItsOwnWorkWouldBegin() async throws {
        try writeConfig("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n")
        let result = try await FeedworkProcess.run(["run"], in: directory, environment: ["FEEDWORK_STARTUP_ONLY": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
        // The command line is still parsed and checked first.
        let wrong = try await FeedworkProcess.run(
            ["run", "--no-such-option"], in: directory, environment: ["FEEDWORK_STARTUP_ONLY": "1"])
        #expect(wrong.status == 2, "\(wrong.stderr)")
    }

    /// glibc's loader names every library it loads on stderr under LD_DEBUG=files.
    func librariesLoaded(by arguments: [String]) async throws -> (FeedworkProcess.Result, curl: Bool) {
        let result = try await FeedworkProcess.run(arguments, in: directory, environment: ["LD_DEBUG": "files"])
        return (result, result.stderr.contains("file=libcurl.so"))
    }

    @Test func aRunOfLocalFilesOrOfflineNeverLoadsLibcurl() async throws {
        try writeConfig(
            """
            feeds:
              - { name: fruit, adapter: fruit, url: data.json }
              - { name: live, adapter: fruit, url: "http://127.0.0.1:9/data.json", enabled: false }
            """)
        let (local, localCurl) = try await librariesLoaded(by: ["run", "--feed", "fruit"])
        #expect(local.status == 0, "\(local.stderr.suffix(2000))")
        #expect(!localCurl)
        let (offline, offlineCurl) = try await librariesLoaded(by: ["run", "--feed", "live", "--offline"])
        #expect(!offlineCurl, "\(offline.stderr.suffix(2000))")
    }

    @Test func aRunOfAFeedThatNamesAnHTTPURLLoadsLibcurlForItsRequest() async throws {
        let server = try LoopbackServer { _ in .json(#"{"fruit":[{"type":"pear","price":99,"weight":80}]}"#) }
        defer { server.stop() }
        try writeConfig("feeds:\n  - { name: fruit, adapter: fruit, url: \"\(server.url("/data.json"))\" }\n")
        let (result, curl) = try await librariesLoaded(by: ["run"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(curl)
    }
}
