import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("json adapter: write modes")
struct JSONWriteModeTests {
    static func yaml(_ mode: String, fields: String = "{ id: int, name: string }") -> String {
        """
            pagination: { type: page, limit: 2, total_path: total }
            records: items
            entity: item
            key: id
            write: \(mode)
            fields: \(fields)
        """
    }

    /// A paged server over the ids in `ids`, two per page, answering 304 to a matching ETag.
    static func server(_ ids: Shared<[Int]>, version: Shared<Int>) throws -> LoopbackServer {
        try LoopbackServer { request in
            let all = ids.value
            let page = Int(request.query("page") ?? "") ?? 1
            let slice = all.dropFirst((page - 1) * 2).prefix(2)
            let tag = "\"v\(version.value)-\(page)\""
            if request.header("if-none-match") == tag { return .status(304, headers: [("ETag", tag)]) }
            let items = slice.map { #"{"id":\#($0),"name":"item-\#($0)"}"# }.joined(separator: ",")
            return .json(#"{"items":[\#(items)],"total":\#(all.count)}"#, headers: [("ETag", tag)])
        }
    }

    @Test(arguments: HarnessStore.available)
    func replaceDeletesRowsThePassDidNotDeliver(driver: HarnessStore) async throws {
        let ids = Shared([1, 2, 3, 4])
        let version = Shared(1)
        let server = try Self.server(ids, version: version)
        let harness = try JSONFeedTest.harness(
            url: server.url("/i"), Self.yaml("replace"), driver: driver)
        _ = try await harness.run()
        ids.set([1, 3, 4])
        version.set(2)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.deleted == 1)
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == [1, 3, 4])
    }

    @Test(arguments: HarnessStore.available)
    func mergeKeepsRowsThePassDidNotDeliver(driver: HarnessStore) async throws {
        let ids = Shared([1, 2, 3])
        let version = Shared(1)
        let server = try Self.server(ids, version: version)
        let harness = try JSONFeedTest.harness(
            url: server.url("/i"), Self.yaml("merge"), driver: driver)
        _ = try await harness.run()
        ids.set([3])
        version.set(2)
        _ = try await harness.run()
        #expect(try await harness.count("item") == 3)
    }

    @Test(arguments: HarnessStore.available)
    func appendKeepsEveryVersionOfARecord(driver: HarnessStore) async throws {
        let body = Shared(#"{"items":[{"id":1,"name":"a"}],"total":1}"#)
        let server = try LoopbackServer { _ in .json(body.value) }
        let harness = try JSONFeedTest.harness(url: server.url("/i"), Self.yaml("append"), driver: driver)
        _ = try await harness.run()
        body.set(#"{"items":[{"id":1,"name":"b"}],"total":1}"#)
        _ = try await harness.run()
        _ = try await harness.run()
        #expect(
            JSONFeedTest.texts(try await harness.rows("SELECT name FROM item ORDER BY _run"), "name") == ["a", "b"])
    }

    @Test(arguments: HarnessStore.available)
    func unchangedPagesAreCountedWithoutBeingMappedAgainInMergeMode(driver: HarnessStore) async throws {
        let ids = Shared([1, 2, 3, 4, 5])
        let server = try Self.server(ids, version: Shared(1))
        let harness = try JSONFeedTest.harness(
            url: server.url("/i"), Self.yaml("merge"), driver: driver)
        _ = try await harness.run()
        let before = try await harness.rows("SELECT id, _last_seen FROM item ORDER BY id")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.unchanged == 5)
        #expect(report.counts.inserted + report.counts.updated == 0)
        #expect(report.hasNote("3 page(s) unchanged"))
        // Rows of skipped pages are not touched at all.
        #expect(try await harness.rows("SELECT id, _last_seen FROM item ORDER BY id") == before)
    }

    @Test(arguments: HarnessStore.available)
    func unchangedPagesAreStillMappedInReplaceMode(driver: HarnessStore) async throws {
        let ids = Shared([1, 2, 3])
        let server = try Self.server(ids, version: Shared(1))
        let harness = try JSONFeedTest.harness(
            url: server.url("/i"), Self.yaml("replace"), driver: driver)
        _ = try await harness.run()
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == FeedReport.Status.ok)
        #expect(report.counts.unchanged == 3)
        #expect(report.counts.deleted == 0)
        #expect(!report.hasNote("unchanged since"))
        #expect(try await harness.count("item") == 3)
    }

    @Test(arguments: HarnessStore.available)
    func aChangedFieldMappingMapsUnchangedPagesAgain(driver: HarnessStore) async throws {
        let ids = Shared([1, 2])
        let server = try Self.server(ids, version: Shared(1))
        let harness = try JSONFeedTest.harness(
            url: server.url("/i"), Self.yaml("merge", fields: "{ id: int }"), driver: driver)
        _ = try await harness.run()
        let config = try String(contentsOf: URL(fileURLWithPath: harness.configPath), encoding: .utf8)
        try harness.setConfig(config.replacingOccurrences(of: "{ id: int }", with: "{ id: int, name: string }"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.updated == 2)
        #expect(
            JSONFeedTest.texts(try await harness.rows("SELECT name FROM item ORDER BY id"), "name") == [
                "item-1", "item-2",
            ])
    }
}
