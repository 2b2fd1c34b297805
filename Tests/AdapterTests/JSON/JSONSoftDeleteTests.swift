import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `delete_when:` turns a changes feed's soft-deleted records into deletions: the row goes,
/// a tombstone stays (exported by `--include-deleted`), the report counts it deleted, and a key
/// delivered again is live again; with `incremental`, only changed records are served.
@Suite("json adapter: soft deletes")
struct JSONSoftDeleteTests {
    /// A changes API: each record with its last change, served when changed at or after `since`;
    /// a deleted record keeps only its id, its change time and `deleted: true`.
    final class ChangesAPI: Sendable {
        struct Change: Sendable {
            var id: Int
            var updated: String
            var name: String?
            var deleted = false
        }

        let changes = Shared<[Change]>([
            Change(id: 1, updated: "2026-01-01T10:00:00Z", name: "one"),
            Change(id: 2, updated: "2026-01-02T10:00:00Z", name: "two"),
            Change(id: 3, updated: "2026-01-03T10:00:00Z", name: "three"),
        ])
        let served = Shared<[Int]>([])

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            let since = request.query("since")
            let picked = changes.value.filter { since == nil || $0.updated >= since! }
            served.set(served.value + [picked.count])
            let items = picked.map { change in
                change.deleted
                    ? #"{"id":\#(change.id),"updated_at":"\#(change.updated)","deleted":true}"#
                    : #"{"id":\#(change.id),"updated_at":"\#(change.updated)","name":"\#(change.name ?? "")","deleted":false,"tags":["t\#(change.id)"]}"#
            }
            return .json(#"{"changes":[\#(items.joined(separator: ","))]}"#)
        }

        func change(_ change: Change) {
            changes.set(changes.value.filter { $0.id != change.id } + [change])
        }
    }

    static func harness(_ api: ChangesAPI, deleteWhen: String, driver: HarnessStore) throws -> (
        FeedHarness, LoopbackServer
    ) {
        let server = try LoopbackServer { api.reply($0) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/changes"),
            """
                records: $.changes
                entity: item
                key: id
                fields: { id: int, updated_at: timestamp, name: { type: string, required: true }, tags: { type: list, of: string } }
                incremental: { cursor_path: updated_at, param: since }
                delete_when: \(deleteWhen)
            """, driver: driver)
        return (harness, server)
    }

    static func pass(_ harness: FeedHarness) async throws -> FeedReport {
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        return report
    }

    /// `export --changed-since RUN --include-deleted` as NDJSON lines.
    static func export(_ harness: FeedHarness, since run: Int64) async throws -> [String] {
        var request = ExportRequest(entity: "item")
        request.changedSince = .run(run)
        request.includeDeleted = true
        request.columns = ["id", "name"]
        let output = ExportOutput.memory()
        try await Exporter(config: try harness.config()).export(request, format: .ndjson, to: output)
        return String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(arguments: HarnessStore.available)
    func aSoftDeletedRecordDeletesItsRowAndLeavesATombstone(driver: HarnessStore) async throws {
        let api = ChangesAPI()
        let (harness, server) = try Self.harness(api, deleteWhen: "{ path: deleted, equals: true }", driver: driver)
        let first = try await Self.pass(harness)
        #expect(first.counts.inserted == 3)

        api.change(.init(id: 2, updated: "2026-01-05T10:00:00Z", deleted: true))
        api.change(.init(id: 3, updated: "2026-01-04T10:00:00Z", name: "three, changed"))
        api.change(.init(id: 9, updated: "2026-01-04T11:00:00Z", deleted: true))  // never stored
        let second = try await Self.pass(harness)
        #expect((second.counts.updated, second.counts.deleted, second.counts.rejected) == (1, 1, 0))
        #expect(second.hasNote("2 record(s) marked deleted by delete_when"))
        #expect(api.served.value == [3, 3], "the second pass read only the changes since the cursor")
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == [1, 3])
        #expect(try await harness.count("item__tags") == 2, "the deleted row's list went with it")
        let cursor = try await harness.rows("SELECT value FROM _state WHERE feed = 'items' AND key = 'cursor'")
        #expect(JSONFeedTest.texts(cursor, "value") == ["2026-01-05T10:00:00Z"], "deletions move the cursor too")
        let run = try #require(first.run)
        #expect(
            try await Self.export(harness, since: run) == [
                #"{"id":3,"name":"three, changed"}"#,
                #"{"_deleted":true,"id":2,"_feed":"items","_key":"2","_run":\#(second.run ?? 0)}"#,
            ])

        // Delivered again, the key is a live row again and no longer exported as deleted.
        api.change(.init(id: 2, updated: "2026-01-06T10:00:00Z", name: "two again"))
        let third = try await Self.pass(harness)
        #expect((third.counts.inserted, third.counts.deleted) == (1, 0))
        #expect(try await Self.export(harness, since: run).contains(#"{"id":2,"name":"two again"}"#))
        #expect(!(try await Self.export(harness, since: run)).contains { $0.contains("_deleted") })
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func conditionsOnMappedFieldsPickTheDeletedRecords(driver: HarnessStore) async throws {
        let api = ChangesAPI()
        let (harness, server) = try Self.harness(api, deleteWhen: #""name=two""#, driver: driver)
        let first = try await Self.pass(harness)
        #expect((first.counts.inserted, first.counts.deleted) == (2, 0), "two was never stored")
        api.change(.init(id: 3, updated: "2026-01-04T10:00:00Z", name: "two"))
        let second = try await Self.pass(harness)
        #expect(second.counts.deleted == 1)
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == [1])
        let tombstones = try await harness.rows("SELECT key FROM _tombstones WHERE entity = 'item'")
        #expect(JSONFeedTest.texts(tombstones, "key") == ["3"])
        withExtendedLifetime(server) {}
    }

    @Test(arguments: HarnessStore.available)
    func withinAPageTheLastWordOnAKeyWins(driver: HarnessStore) async throws {
        let harness = try JSONFeedTest.harness(
            url: "changes.json",
            """
                entity: item
                key: id
                fields: { id: int, name: string }
                delete_when: { path: gone, equals: "yes" }
            """,
            files: [
                "changes.json": Data(
                    #"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":1,"gone":"yes"},{"id":2,"gone":"yes"},{"id":2,"name":"b2"}]"#
                        .utf8)
            ], driver: driver)
        let report = try await Self.pass(harness)
        #expect(report.counts.inserted == 1)
        #expect(JSONFeedTest.texts(try await harness.rows("SELECT name FROM item ORDER BY id"), "name") == ["b2"])
    }

    /// Problems of `delete_when:` are reported at their line and column.
    @Test func deleteWhenIsCheckedWhereTheFeedIsLoaded() throws {
        let feed = """
              - name: items
                adapter: json
                url: https://api.example.com/items
                entity: item
                key: id
                fields: { id: int, name: string }

            """
        // Lines count from the config's `feeds:` line: the feed's keys start on line 2.
        let append = try JSONValidationTests.problems(
            feed + "    write: append\n    delete_when: { path: deleted, equals: true }")
        #expect(append.count == 1)
        #expect(
            append.first?.hasPrefix(
                "9:18: feed 'items': delete_when needs write: merge or replace: append keeps every version") == true,
            "\(append)")
        let unknown = try JSONValidationTests.problems(feed + "    delete_when: [\"name=x\", \"colour=red\"]")
        #expect(unknown == ["8:29: feed 'items': delete_when 'colour=red': no field 'colour'; fields: id, name"])
        let columns = try JSONValidationTests.problems(
            feed + "    extra: columns\n    delete_when: { path: deleted, equals: true }")
        #expect(columns.count == 1)
        #expect(columns.first?.contains("delete_when cannot be combined with extra: columns") == true, "\(columns)")
        let path = try JSONValidationTests.problems(feed + "    delete_when: { path: 'a..b', equals: x }")
        #expect(path.count == 1)
        #expect(path.first?.hasPrefix("8:") == true && path.first?.contains("bad path 'a..b'") == true, "\(path)")
    }
}
