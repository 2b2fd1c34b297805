import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A page the server confirms unchanged is counted from what the pass that stored it read
/// (its summary in `_state`), without reading, inflating or parsing the cached body.
@Suite("json adapter: page summaries")
struct JSONPageSummaryTests {
    static let yaml = """
            pagination: { type: page, limit: 2, total_path: total }
            records: items
            entity: item
            key: id
            fields: { id: int, name: string }
        """

    func summaries(_ harness: FeedHarness) async throws -> [String] {
        JSONFeedTest.texts(
            try await harness.rows("SELECT value FROM _state WHERE key LIKE 'json.page.%' ORDER BY key"), "value")
    }

    @Test(arguments: HarnessStore.available)
    func anUnchangedPageIsCountedWithoutReadingItsCachedBody(driver: HarnessStore) async throws {
        let server = try JSONWriteModeTests.server(Shared([1, 2, 3, 4, 5]), version: Shared(1))
        let harness = try JSONFeedTest.harness(url: server.url("/i"), Self.yaml, driver: driver)
        _ = try await harness.run()
        // Bodies that no longer inflate: a pass that needed one would have no cache entry.
        let byte = harness.storeKind == .postgres ? #"'\x00'::bytea"# : "x'00'"
        try await harness.execute("UPDATE _http_cache_body SET body = \(byte), body_size = 1000")
        let firstPassRequests = server.requestCount
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.hasNote("3 page(s) unchanged"))
        #expect((report.counts.unchanged, report.counts.inserted, report.counts.updated) == (5, 0, 0))
        let conditional = server.requests.dropFirst(firstPassRequests).map { $0.header("if-none-match") != nil }
        #expect(conditional == [true, true, true])
    }

    @Test(arguments: HarnessStore.available)
    func everyUnchangedPageOfAPassOfManyIsCountedAndItsCacheEntryRefreshed(driver: HarnessStore) async throws {
        // 70 pages: more than the refreshes a pass keeps before sending them to the store.
        let server = try JSONWriteModeTests.server(Shared(Array(1...140)), version: Shared(1))
        let harness = try JSONFeedTest.harness(
            url: server.url("/i"), Self.yaml.replacingOccurrences(of: "limit: 2,", with: "limit: 2, parallel: 4,"),
            driver: driver)
        _ = try await harness.run()
        let firstFetch = JSONFeedTest.texts(try await harness.rows("SELECT max(fetched_at) AS t FROM _http_cache"), "t")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.hasNote("70 page(s) unchanged"))
        #expect((report.counts.unchanged, report.counts.inserted, report.counts.updated) == (140, 0, 0))
        let refreshed = try await harness.rows(
            "SELECT count(*) AS n FROM _http_cache WHERE fetched_at > $1", [.text(firstFetch.first ?? "")])
        #expect(JSONFeedTest.integers(refreshed, "n") == [70])
    }

    @Test(arguments: HarnessStore.available)
    func aSummaryThatNoLongerMatchesItsPageIsReadAgainAndReplaced(driver: HarnessStore) async throws {
        let server = try JSONWriteModeTests.server(Shared([1, 2, 3]), version: Shared(1))
        let harness = try JSONFeedTest.harness(url: server.url("/i"), Self.yaml, driver: driver)
        _ = try await harness.run()
        let written = try await summaries(harness)
        #expect(written.count == 2)
        try await harness.execute(
            "UPDATE _state SET value = replace(value, 'v1-', 'v0-') WHERE key LIKE 'json.page.%'")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.hasNote("2 page(s) unchanged"))
        #expect(report.counts.unchanged == 3)
        let after = try await summaries(harness)
        #expect(after == written, "\(after) \(written)")
    }

    @Test(arguments: HarnessStore.available)
    func changedPaginationOptionsMakeUnchangedPagesBeReadAgain(driver: HarnessStore) async throws {
        let server = try JSONWriteModeTests.server(Shared([1, 2, 3]), version: Shared(1))
        let harness = try JSONFeedTest.harness(url: server.url("/i"), Self.yaml, driver: driver)
        _ = try await harness.run()
        let config = try String(contentsOf: URL(fileURLWithPath: harness.configPath), encoding: .utf8)
        try harness.setConfig(
            config.replacingOccurrences(of: "total_path: total", with: "total_path: total, max_pages: 9"))
        let report = try #require(try await harness.run().feeds.first)
        #expect(!report.hasNote("unchanged since"))
        #expect((report.counts.unchanged, report.counts.inserted, report.counts.updated) == (3, 0, 0))
    }

    @Test(arguments: HarnessStore.available)
    func summariesOfPagesNoLongerWalkedAreDropped(driver: HarnessStore) async throws {
        let ids = Shared([1, 2, 3, 4, 5])
        let version = Shared(1)
        let server = try JSONWriteModeTests.server(ids, version: version)
        let harness = try JSONFeedTest.harness(url: server.url("/i"), Self.yaml, driver: driver)
        _ = try await harness.run()
        #expect(try await summaries(harness).count == 3)
        ids.set([1, 2])
        version.set(2)
        _ = try await harness.run()
        #expect(try await summaries(harness).count == 1)
    }

    @Test(arguments: HarnessStore.available)
    func aFailedPassKeepsTheSummariesItFound(driver: HarnessStore) async throws {
        let ids = Shared([1, 2, 3])
        let version = Shared(1)
        let server = try JSONWriteModeTests.server(ids, version: version)
        let harness = try JSONFeedTest.harness(url: server.url("/i"), Self.yaml, driver: driver)
        _ = try await harness.run()
        let written = try await summaries(harness)
        server.stop()
        let report = try #require(try await harness.run().feeds.first)
        #expect(!report.staleURLs.isEmpty)
        await #expect(try summaries(harness) == written)
    }

    @Test(arguments: HarnessStore.available)
    func aNextLinkWithASecretIsStoredOnlySealedAsItsVariable(driver: HarnessStore) async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let next = page < 2 ? #","next":"/items?page=\#(page + 1)&key=\#(request.query("key") ?? "")""# : ""
            let tag = "\"p\(page)\""
            if request.header("if-none-match") == tag { return .status(304, headers: [("ETag", tag)]) }
            return .json(#"{"items":[{"id":\#(page)}]\#(next)}"#, headers: [("ETag", tag)])
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                auth: { type: api_key, query: key, value: "${KEY}" }
                pagination: { type: next_url, next_path: next }
                records: items
                entity: item
                key: id
                fields: { id: int }
            """, environment: ["KEY": "very-secret-key"], driver: driver)
        _ = try await harness.run()
        // The first page's summary holds its next link with the key sealed as `${KEY}`.
        let stored = try await summaries(harness)
        #expect(stored.count == 2)
        #expect(stored.allSatisfy { !$0.contains("very-secret-key") })
        #expect(stored.contains { $0.contains("key=${KEY}") })
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.hasNote("2 page(s) unchanged"))
        #expect(server.requests.suffix(2).allSatisfy { $0.query("key") == "very-secret-key" })
    }
}
