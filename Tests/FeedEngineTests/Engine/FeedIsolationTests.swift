import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Feed isolation")
struct FeedIsolationTests {
    @Test func aFeedThatFailsMidPassKeepsItsRowsWhileAnotherFeedCommits() async throws {
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: """
                feeds:
                  - { name: steady, adapter: items, url: steady.json, entity: steady_item }
                  - { name: flaky, adapter: items, url: flaky.json }
                """,
            files: ["steady.json": itemsJSON([("s1", 1)]), "flaky.json": itemsJSON([("a", 1), ("b", 2)])])
        _ = try await harness.run()
        let before = try await harness.rows("SELECT * FROM item ORDER BY id")

        try harness.setConfig(
            """
            feeds:
              - { name: steady, adapter: items, url: steady.json, entity: steady_item }
              - { name: flaky, adapter: items, url: flaky.json, fail_after: 2 }
            """)
        try harness.write("steady.json", itemsJSON([("s1", 1), ("s2", 2)]))
        try harness.write("flaky.json", itemsJSON([("a", 100), ("b", 200), ("c", 300)]))
        let report = try await harness.run()

        let flaky = try #require(report.feeds.first { $0.feed == "flaky" })
        let steady = try #require(report.feeds.first { $0.feed == "steady" })
        #expect(flaky.status == .failed)
        #expect(flaky.error?.contains("failed on purpose") == true)
        #expect(steady.status == .ok)
        #expect(steady.counts.inserted == 1)
        #expect(
            try await harness.rows("SELECT * FROM item ORDER BY id") == before, "the failed feed's rows are untouched")
        #expect(try await harness.count("steady_item") == 2)
    }

    @Test func aFailedPassIsRecordedInRunsWithItsError() async throws {
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: flaky, adapter: items, url: missing.json }\n")
        let report = try await harness.run()
        #expect(report.succeeded == false)
        let run = try #require(try await harness.rows("SELECT status, error FROM _runs").first)
        #expect(run["status"] == .text("failed"))
        if case .text(let error)? = run["error"] {
            #expect(error.contains("missing.json"))
        } else {
            Issue.record("no error recorded")
        }
    }

    @Test func feedsRunConcurrentlyAndAllCommit() async throws {
        var yaml = "defaults: { concurrency: 4 }\nfeeds:\n"
        var files: [String: Data] = [:]
        for index in 0..<8 {
            yaml += "  - { name: feed\(index), adapter: items, url: f\(index).json }\n"
            files["f\(index).json"] = itemsJSON((0..<50).map { ("k\($0)", $0 * index) })
        }
        let harness = try FeedHarness(registry: AdapterRegistry([ItemsAdapter.self]), yaml: yaml, files: files)
        let report = try await harness.run()
        #expect(report.feeds.map(\.status) == Array(repeating: .ok, count: 8))
        #expect(try await harness.count("item") == 400)
    }
}
