import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import Hummingbird
import JSONFeed
import Testing

/// A client that stops reading a download holds no read of the store: a pass that changes the
/// table (on PostgreSQL, `ALTER TABLE` waits for every reader of the table) still finishes.
@Suite struct ServeStalledClientTests {
    /// Large enough (about 12 MB as CSV) that the answer cannot sit in the sockets' buffers.
    static let rows = 100_000

    static func yaml(fields: String) -> String {
        """
        feeds:
          - { name: big, adapter: json, url: items.json, records: items, entity: item, key: id,
              fields: { \(fields) } }
        """
    }

    static func items() -> Data {
        let padding = String(repeating: "x", count: 100)
        let rows = (0..<Self.rows).map { #"{"id":\#($0),"name":"item-\#($0)","text":"\#(padding)"}"# }
        return Data(#"{"items":[\#(rows.joined(separator: ","))]}"#.utf8)
    }

    /// A pass that waits for a stalled reader never finishes. One that does not wait took a good
    /// part of a minute on PostgreSQL on a loaded machine (a debug build, both stores' cases at
    /// once in 54 s at load 19, 100,000 rows under the new column), too close to the 60 s it
    /// had: 150 s tells the two apart with room.
    @Test(.timeLimit(.minutes(5)), arguments: HarnessStore.available)
    func aPassThatAltersTheTableFinishesWhileADownloadStalls(store: HarnessStore) async throws {
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]),
            yaml: Self.yaml(fields: "id: int, name: string, text: string"),
            files: ["items.json": Self.items()], store: store)
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let port = try #require(client.port)
            let stalled = try await StalledClient.open(port: port, path: "/api/entities/item/export.csv")
            defer { stalled.hangUp() }
            #expect(stalled.head.hasPrefix("HTTP/1.1 200"))
            // A new field: the pass adds a column to the table the download reads.
            try harness.setConfig(Self.yaml(fields: "id: int, name: string, text: string, extra: string"))
            let finished = try await Self.within(.seconds(150)) { _ = try await harness.run() }
            #expect(finished, "the pass did not finish while a client stalled on a download")
        }
        #expect(try await harness.rows("SELECT count(*) AS n FROM item").first?["n"] == .integer(Int64(Self.rows)))
    }

    /// Whether `body` finished within `limit`; if not, it is left to finish after the caller
    /// has hung up the stalled client.
    static func within(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
