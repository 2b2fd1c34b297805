import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Rows a `replace` pass deletes leave tombstones, which `export --changed-since ...
/// --include-deleted` writes after the changed rows.
@Suite("Export: deleted rows")
struct TombstoneExportTests {
    let harness: FeedHarness

    init() throws {
        harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            // The passes delete most rows on purpose.
            yaml: "feeds:\n  - { name: items, adapter: items, url: items.json, mode: replace, max_delete_ratio: 1 }\n",
            files: ["items.json": itemsJSON([("a", 1), ("b", 2), ("c", 3)])])
    }

    /// Runs the feed over `items` and returns its run id.
    func run(_ items: [(String, Int)]) async throws -> Int64 {
        try harness.write("items.json", itemsJSON(items))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        return try #require(report.run)
    }

    func export(since run: Int64, format: ExportFormat = .ndjson, includeDeleted: Bool = true) async throws -> String {
        var request = ExportRequest(entity: "item")
        request.changedSince = .run(run)
        request.includeDeleted = includeDeleted
        let output = ExportOutput.memory()
        try await Exporter(config: try harness.config()).export(request, format: format, to: output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test func aReplacePassLeavesATombstoneForEachRowItDeletes() async throws {
        let first = try await run([("a", 1), ("b", 2), ("c", 3)])
        let second = try await run([("a", 1)])
        let tombstones = try await harness.rows("SELECT feed, entity, key, run FROM _tombstones ORDER BY key")
        #expect(
            tombstones
                == ["b", "c"].map { key in
                    ["feed": .text("items"), "entity": .text("item"), "key": .text(key), "run": .integer(second)]
                })
        #expect(second > first)
    }

    @Test func theDeletedRowsFollowTheChangedRowsMarkedDeleted() async throws {
        let first = try await run([("a", 1), ("b", 2), ("c", 3)])
        let second = try await run([("a", 10), ("c", 3)])
        await #expect(
            try export(since: first) == """
                {"id":"a","value":10}
                {"_deleted":true,"id":"b","_feed":"items","_key":"b","_run":\(second)}

                """)
        await #expect(try export(since: first, includeDeleted: false) == "{\"id\":\"a\",\"value\":10}\n")
        await #expect(try export(since: second).isEmpty, "the deletion is not after run \(second)")
    }

    @Test func csvGetsADeletedColumn() async throws {
        let first = try await run([("a", 1), ("b", 2)])
        _ = try await run([("a", 10)])
        await #expect(try export(since: first, format: .csv) == "id,value,_deleted\r\na,10,\r\nb,,true\r\n")
    }

    @Test func aRowDeletedThenDeliveredAgainIsNotReportedDeleted() async throws {
        let first = try await run([("a", 1), ("b", 2)])
        _ = try await run([("a", 1)])
        let third = try await run([("a", 1), ("b", 2)])
        await #expect(
            try export(since: first) == "{\"id\":\"b\",\"value\":2}\n", "b is back: a changed row, not a deleted one")

        let fourth = try await run([("a", 1)])
        await #expect(
            try export(since: first)
                == "{\"_deleted\":true,\"id\":\"b\",\"_feed\":\"items\",\"_key\":\"b\",\"_run\":\(fourth)}\n",
            "deleted twice in the window, reported once, by its last deletion")
        #expect(third < fourth)
    }

    @Test func includeDeletedWithoutChangedSinceIsAUsageError() async throws {
        _ = try await run([("a", 1)])
        var request = ExportRequest(entity: "item")
        request.includeDeleted = true
        await #expect {
            try await Exporter(config: try harness.config()).export(request, format: .ndjson, to: .memory())
        } throws: { error in
            (error as? ExportError)?.isUsageError == true
                && (error as? ExportError)?.message.contains("--include-deleted needs --changed-since") == true
        }
    }

    @Test func columnsWithoutTheKeyCannotSayWhatWasDeleted() async throws {
        let first = try await run([("a", 1)])
        var request = ExportRequest(entity: "item")
        request.changedSince = .run(first)
        request.includeDeleted = true
        request.columns = ["value"]
        await #expect {
            try await Exporter(config: try harness.config()).export(request, format: .ndjson, to: .memory())
        } throws: { error in
            (error as? ExportError)?.message
                == "--include-deleted needs id in --columns, to say which rows were deleted"
        }
    }
}
