import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// On PostgreSQL, passes of different feeds in one process write at the same time (SQLite
/// allows one writer, so there a second pass's writes wait for the first to commit).
@Suite("PostgreSQL: passes of different feeds write at once")
struct PostgresParallelPassTests {
    @Test func aQuickFeedCommitsWhileASlowOneHoldsItsOpenTransaction() async throws {
        guard HarnessStore.available.contains(.postgres) else { return }
        // `slow` writes its first page at once, then waits fifteen seconds for its second; `quick`
        // gets its one page after a second, while `slow`'s transaction is open (a margin wide
        // enough for a loaded CI machine: with four seconds, `quick` once ended second there).
        let server = try LoopbackServer { request in
            switch (request.path, request.query("offset")) {
            case ("/slow", "0"?): .json(#"{"items":[{"id":1},{"id":2}],"total":4}"#)
            case ("/slow", _): LoopbackReply.json(#"{"items":[{"id":3},{"id":4}],"total":4}"#).delayed(by: .seconds(15))
            default: LoopbackReply.json(#"{"items":[{"id":9}]}"#).delayed(by: .seconds(1))
            }
        }
        let feed = { (name: String, pagination: String) in
            """
              - name: \(name)
                adapter: json
                url: "\(server.url("/" + name))"
                records: $.items
                entity: item_\(name)
                key: id
                fields: { id: int }
            \(pagination)
            """
        }
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]),
            yaml: "feeds:\n" + feed("slow", "    pagination: { type: offset, limit: 2, total_path: $.total }")
                + "\n" + feed("quick", "") + "\n",
            store: .postgres)
        let report = try await harness.run()
        #expect(report.feeds.allSatisfy { $0.status == .ok }, "\(report.feeds.map { $0.error ?? "ok" })")
        let finished = try await harness.rows("SELECT feed, finished_at FROM _runs ORDER BY finished_at").map {
            $0["feed"]?.description ?? ""
        }
        #expect(finished == ["quick", "slow"], "the quick feed did not wait for the slow one's commit")
    }
}
