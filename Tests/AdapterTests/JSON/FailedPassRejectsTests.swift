import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A pass that fails rolls back its rows, but the rejects it wrote are kept with its run, so
/// `feedwork rejects --run N` says why it failed.
@Suite("json adapter: rejects of a failed pass")
struct FailedPassRejectsTests {
    static let yaml = """
            records: items
            entity: item
            key: id
            fields: { id: int, in_stock: bool }
        """

    @Test(arguments: HarnessStore.available)
    func theRejectsOfAPassThatFailedForThemAreKeptWithItsRun(driver: HarnessStore) async throws {
        let body = #"{"items":[{"id":1,"in_stock":"Y"},{"id":2,"in_stock":"N"}]}"#
        let harness = try JSONFeedTest.harness(
            url: "items.json", Self.yaml, files: ["items.json": Data(body.utf8)], driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let run = try #require(report.run)
        let rejects = try await harness.rows("SELECT run, path, reason FROM _rejects ORDER BY path")
        #expect(rejects.map { $0["run"] } == [.integer(run), .integer(run)])
        #expect(rejects.map { $0["path"] } == [.text("$.items[0].in_stock"), .text("$.items[1].in_stock")])
        #expect(try await harness.tableNames(like: "item%") == [])
    }

    /// The tables of a pass are prepared in its transaction: a first pass that fails leaves no
    /// table, view or `_entities` row, so the corrected config may type the column otherwise.
    @Test(arguments: HarnessStore.available)
    func aFailedFirstPassLeavesNothingSoACorrectedTypeIsTaken(driver: HarnessStore) async throws {
        let body = #"{"items":[{"id":1,"in_stock":"Y"},{"id":2,"in_stock":"N"}]}"#
        let harness = try JSONFeedTest.harness(
            url: "items.json", Self.yaml, files: ["items.json": Data(body.utf8)], driver: driver)
        let failed = try #require(try await harness.run().feeds.first)
        #expect(failed.status == .failed)
        #expect(try await harness.tableNames(like: "item%") == [])
        #expect(try await harness.count("_entities") == 0)
        try harness.setConfig(
            """
            feeds:
              - name: items
                adapter: json
                url: items.json
                retries: 0
                records: items
                entity: item
                key: id
                fields: { id: int, in_stock: string }
            """)
        let corrected = try #require(try await harness.run().feeds.first)
        #expect(corrected.status == .ok, "\(corrected.error ?? "")")
        let rows = try await harness.rows("SELECT in_stock FROM item ORDER BY id")
        #expect(JSONFeedTest.texts(rows, "in_stock") == ["Y", "N"])
    }

    @Test(arguments: HarnessStore.available)
    func aPassThatFailsOnALaterPageKeepsTheRejectsOfTheEarlierOnes(driver: HarnessStore) async throws {
        let server = try LoopbackServer { request in
            guard request.query("page") == "2" else {
                return .json(#"{"items":[{"id":1,"in_stock":true},{"id":2,"in_stock":"maybe"}],"total":4}"#)
            }
            return .status(500)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            Self.yaml + "\n    pagination: { type: page, limit: 2, total_path: total }\n    max_reject_ratio: 1",
            driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let rejects = try await harness.rows("SELECT run, reason FROM _rejects")
        #expect(rejects.count == 1)
        #expect(rejects.first?["run"] == report.run.map { .integer($0) })
        #expect(
            try await harness.tableNames(like: "item%") == [], "page 1's rows rolled back with the pass, and its table")
    }

    @Test(arguments: HarnessStore.available)
    func aPassThatCommitsKeepsItsRejectsOnce(driver: HarnessStore) async throws {
        let body = #"{"items":[{"id":1,"in_stock":true},{"id":2,"in_stock":"Y"}]}"#
        let harness = try JSONFeedTest.harness(
            url: "items.json", Self.yaml + "\n    max_reject_ratio: 1", files: ["items.json": Data(body.utf8)],
            driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .okWithRejects)
        #expect(try await harness.count("_rejects") == 1)
    }
}
