import Foundation
import Testing

@Suite("feedwork run: a singer feed")
struct SingerCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("singer")
        // The example tap that Adapters/Singer ships, beside the feeds.yaml that runs it.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }  // Tests/CLITests/SingerCommandTests.swift
        let tap = root.appendingPathComponent("Adapters/Singer/Fixtures/example_tap.py")
        try FileManager.default.copyItem(at: tap, to: directory.appendingPathComponent("example_tap.py"))
        try Data(
            """
            feeds:
              - name: planets
                adapter: singer
                command: [python3, example_tap.py]
            """.utf8
        ).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func runLoadsTheTapsStreamAndExportReadsIt() async throws {
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let export = try await FeedworkProcess.run(["export", "planets"], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        let lines = export.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.contains { $0.contains(#""name":"Earth""#) && $0.contains(#""moons":1"#) })
        #expect(lines.contains { $0.contains(#""radius_km":"69911""#) })
    }

    @Test func listCountsTheRowsOfTheStreamsTheTapAnnounced() async throws {
        _ = try await FeedworkProcess.run(["run"], in: directory)
        let list = try await FeedworkProcess.run(["list", "--json"], in: directory)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains(#""planets" : 5"#), "\(list.stdout)")
    }

    @Test func theSecondRunResumesFromTheTapsStateAndLogsItsStderr() async throws {
        _ = try await FeedworkProcess.run(["run"], in: directory)
        let again = try await FeedworkProcess.run(["run", "--json", "--log-level", "info"], in: directory)
        #expect(again.status == 0, "\(again.stderr)")
        // The tap was handed its bookmark, and sent no planet again.
        #expect(again.stderr.contains("tap: example tap: planets updated after '2024-01-05T00:00:00Z'"))
        let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        let counts = (report?["feeds"] as? [[String: Any]])?.first?["counts"] as? [String: Int]
        #expect(counts?["inserted"] == 0)
        #expect(counts?["unchanged"] == 0)
        let export = try await FeedworkProcess.run(["export", "planets"], in: directory)
        #expect(export.stdout.split(separator: "\n").count == 5)
    }
}
