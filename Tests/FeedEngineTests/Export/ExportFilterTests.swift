import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Filters, relations, feeds and increments against a real store written by the engine.
@Suite("export filters on a store")
struct ExportFilterTests {
    static let records = """
        [
          {"entity":"item","fields":{"id":1,"name":"O'Brien \\"the\\" pear","price":"1.50","active":true}},
          {"entity":"item","fields":{"id":2,"name":"apple, red","price":"10","active":false}},
          {"entity":"item","fields":{"id":3,"name":"Café","price":"9.99"}},
          {"entity":"category","fields":{"id":10,"name":"Maison"}},
          {"entity":"category","fields":{"id":20,"name":"Jardin"}},
          {"entity":"listing","fields":{"id":100,"title":"sofa","category_id":10}},
          {"entity":"listing","fields":{"id":101,"title":"rake","category_id":20}},
          {"entity":"listing","fields":{"id":102,"title":"lamp","category_id":10}},
          {"entity":"listing","fields":{"id":103,"title":"unknown"}}
        ]
        """

    func ids(_ store: ExportTestStore, _ entity: String, _ filters: [String], feeds: [String] = []) async throws
        -> [Int]
    {
        var request = ExportRequest(entity: entity)
        request.filters = try filters.map { try ExportFilter(where: $0) }
        request.feeds = feeds
        request.columns = ["id"]
        let rows = try PythonCSV.parse(try await store.export(request, format: .csv)).dropFirst()
        return rows.compactMap { $0.first.flatMap { Int($0) } }
    }

    func makeStore(feeds: [String] = ["main"], driver: HarnessStore) async throws -> ExportTestStore {
        let store = try ExportTestStore(records: Self.records, feeds: feeds, driver: driver)
        try await store.run()
        return store
    }

    @Test(arguments: HarnessStore.available)
    func aValueContainingQuotesMatchesExactly(driver: HarnessStore) async throws {
        let store = try await makeStore(driver: driver)
        await #expect(try ids(store, "item", [#"name=O'Brien "the" pear"#]) == [1])
        await #expect(try ids(store, "item", [#"name~'brien "THE"#]) == [1])
    }

    @Test(arguments: HarnessStore.available)
    func comparisonsFollowTheColumnType(driver: HarnessStore) async throws {
        let store = try await makeStore(driver: driver)
        await #expect(try ids(store, "item", ["price<9.99"]) == [1], "decimals compare as numbers, not text")
        await #expect(try ids(store, "item", ["price=1.5"]) == [1])
        await #expect(try ids(store, "item", ["active=false"]) == [2])
        await #expect(try ids(store, "item", ["active!=true"]) == [2, 3], "!= keeps nulls")
        await #expect(try ids(store, "item", ["id>1", "id<=3", "name~a"]) == [2, 3])
        await #expect(try ids(store, "item", ["name~é"]) == [3])
    }

    @Test(arguments: HarnessStore.available)
    func containsSearchesNumbersTimesAndJSONAsTheirStoredText(driver: HarnessStore) async throws {
        let store = try ExportTestStore(
            records: #"""
                [{"entity":"item","fields":{"id":12,"price":"0.10","seen_at":"2026-01-10T10:11:12Z","payload":{"k":"v"}}},
                 {"entity":"item","fields":{"id":30,"price":"7","seen_at":"2025-03-01T00:00:00.5Z"}}]
                """#, driver: driver)
        try await store.run()
        await #expect(try ids(store, "item", ["id~2"]) == [12])
        await #expect(try ids(store, "item", ["price~0.1"]) == [12])
        await #expect(try ids(store, "item", ["seen_at~2026-01-10T10:11"]) == [12])
        await #expect(try ids(store, "item", ["seen_at~00:00.5"]) == [30])
        await #expect(try ids(store, "item", ["payload~k"]) == [12])
    }

    @Test(arguments: HarnessStore.available)
    func aRelatedEntityFiltersByLabelOrKey(driver: HarnessStore) async throws {
        let store = try await makeStore(driver: driver)
        await #expect(try ids(store, "listing", ["category=Maison"]) == [100, 102])
        await #expect(try ids(store, "listing", ["category=20"]) == [101])
        await #expect(try ids(store, "listing", ["category~jard"]) == [101])
        await #expect(try ids(store, "listing", ["category!=Maison"]) == [101, 103])
        await #expect(try ids(store, "listing", ["category=Nowhere"]) == [])
    }

    @Test(arguments: HarnessStore.available)
    func aRelationMatchesOnlyRowsOfTheSameFeed(driver: HarnessStore) async throws {
        let store = try await makeStore(feeds: ["a", "b"], driver: driver)
        try store.setRecords(#"[{"entity":"category","fields":{"id":10,"name":"Bureau"}}]"#, feed: "b")
        try await store.run()
        // Feed b's category 10 is now "Bureau": its listings no longer match "Maison".
        await #expect(try ids(store, "listing", ["category=Maison"], feeds: ["b"]) == [])
        await #expect(try ids(store, "listing", ["category=Maison"], feeds: ["a"]) == [100, 102])
    }

    @Test(arguments: HarnessStore.available)
    func anUnknownFeedIsAUsageErrorListingTheFeeds(driver: HarnessStore) async throws {
        let store = try await makeStore(driver: driver)
        await #expect {
            try await ids(store, "item", [], feeds: ["ghost"])
        } throws: { error in
            (error as? ExportError)?.message == "--feed: no feed 'ghost' has run on this store; feeds: main"
        }
    }

    @Test(arguments: HarnessStore.available)
    func changedSinceARunExportsExactlyTheRowsALaterPassChanged(driver: HarnessStore) async throws {
        let store = try ExportTestStore(records: Self.records, driver: driver)
        let first = try #require(try await store.run().first)
        try store.setRecords(Self.records.replacingOccurrences(of: #""title":"rake""#, with: #""title":"rake, steel""#))
        let second = try #require(try await store.run().first)
        var request = ExportRequest(entity: "listing")
        request.changedSince = .run(first)
        request.includeMeta = true
        let lines = try await store.export(request, format: .ndjson).split(separator: "\n")
        #expect(lines.count == 1)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(row["title"] as? String == "rake, steel")
        #expect((row["_run"] as? NSNumber)?.int64Value == second)
        request.changedSince = .run(second)
        #expect(try await store.export(request, format: .ndjson).isEmpty)
    }

    @Test(arguments: HarnessStore.available)
    func changedSinceATimeExportsRowsOfRunsStartedAtOrAfterIt(driver: HarnessStore) async throws {
        let store = try ExportTestStore(records: Self.records, driver: driver)
        try await store.run()
        let between = Date()
        try await Task.sleep(for: .milliseconds(20))
        try store.setRecords(Self.records.replacingOccurrences(of: #""name":"Café""#, with: #""name":"Café crème""#))
        try await store.run()
        var request = ExportRequest(entity: "item")
        request.changedSince = .time(between)
        request.columns = ["name"]
        #expect(try await store.export(request, format: .csv) == "name\r\nCafé crème\r\n")
        request.changedSince = .time(between.addingTimeInterval(3600))
        #expect(try await store.export(request, format: .csv) == "name\r\n")
    }

    @Test(arguments: HarnessStore.available)
    func orderAndLimitApplyToTheStream(driver: HarnessStore) async throws {
        let store = try await makeStore(driver: driver)
        var request = ExportRequest(entity: "item")
        request.order = [.descending("id")]
        request.limit = 2
        request.columns = ["id"]
        #expect(try await store.export(request, format: .csv) == "id\r\n3\r\n2\r\n")
    }
}
