import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import Hummingbird
import JSONFeed
import Testing

/// Every `/api` route against a real server, on both stores.
@Suite struct ServeAPITests {
    typealias JSON = [String: Any]

    @Test(arguments: HarnessStore.available)
    func feedsListEveryFeedWithItsLastRunAndRows(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(harness) { client in
            let response = try await client.execute(uri: "/api/feeds", method: .get)
            #expect(response.status == .ok)
            let feeds = try #require(try ServedStore.json(response) as? [JSON])
            #expect(feeds.map { $0["feed"] as? String } == ["ads"])
            let recent = try #require(feeds[0]["recent"] as? [JSON])
            #expect(recent.first?["status"] as? String == "ok")
            let rows = try #require(feeds[0]["rows"] as? [JSON])
            #expect(rows.contains { $0["entity"] as? String == "classified" && ($0["rows"] as? Int ?? 0) > 100 })
        }
    }

    @Test(arguments: HarnessStore.available)
    func runsOfAFeedArePagedNewestFirst(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let first =
                try ServedStore.json(try await client.execute(uri: "/api/feeds/ads/runs?limit=1", method: .get))
                as? JSON
            let runs = try #require(first?["runs"] as? [JSON])
            let next = try #require(first?["next"] as? Int)
            let second =
                try ServedStore.json(
                    try await client.execute(uri: "/api/feeds/ads/runs?limit=1&before=\(next)", method: .get)) as? JSON
            let older = try #require(second?["runs"] as? [JSON])
            #expect(runs.count == 1 && older.count == 1)
            #expect((older[0]["run"] as? Int ?? 0) < (runs[0]["run"] as? Int ?? 0))
        }
    }

    @Test func rejectsOfAFeedAreListed() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let response = try await client.execute(uri: "/api/feeds/ads/rejects", method: .get)
            #expect(response.status == .ok)
            #expect((try ServedStore.json(response) as? JSON)?["rejects"] is [Any])
        }
    }

    @Test func anUnknownFeedIsNotFound() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let status1 = try await client.execute(uri: "/api/feeds/nope/runs", method: .get).status
            #expect(status1 == .notFound)
            let status2 = try await client.execute(uri: "/api/feeds/nope/rejects", method: .get).status
            #expect(status2 == .notFound)
        }
    }

    @Test func entitiesListTablesWithTypedFields() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let entities = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/entities", method: .get)) as? [JSON])
            let classified = try #require(entities.first { $0["name"] as? String == "classified" })
            let fields = try #require(classified["fields"] as? [JSON])
            #expect(fields.contains { $0["name"] as? String == "is_urgent" && $0["type"] as? String == "boolean" })
        }
    }

    @Test(arguments: HarnessStore.available)
    func rowsTakeTheFiltersOfExport(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(harness) { client in
            let page = try #require(
                try ServedStore.json(
                    try await client.execute(
                        uri: "/api/entities/classified/rows?where=category%3DMaison&where=price%3C5000&limit=500",
                        method: .get)) as? JSON)
            let rows = try #require(page["rows"] as? [JSON])
            #expect(!rows.isEmpty)
            #expect(rows.allSatisfy { $0["category_id"] as? Int == 4 && ($0["price"] as? Int ?? .max) < 5000 })
        }
    }

    /// A page's rows carry the columns `/api/entities` lists, on both stores: not the
    /// tie-breaker `_row` a keyset read selects (SQLite's rowid, PostgreSQL's identity column).
    @Test(arguments: HarnessStore.available)
    func rowsCarryTheColumnsOfTheEntityOnBothStores(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(harness) { client in
            let entities = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/entities", method: .get)) as? [JSON])
            let listed = try #require(entities.first { $0["name"] as? String == "classified" }?["fields"] as? [JSON])
            let page = try #require(
                try ServedStore.json(
                    try await client.execute(uri: "/api/entities/classified/rows?limit=3", method: .get))
                    as? JSON)
            let names = listed.compactMap { $0["name"] as? String }
            let fields = try #require(page["fields"] as? [JSON]).compactMap { $0["name"] as? String }
            #expect(fields == names)
            for row in try #require(page["rows"] as? [JSON]) {
                #expect(Set(row.keys) == Set(names))
            }
            let record = try #require(
                try ServedStore.json(
                    try await client.execute(uri: "/api/entities/category/records/ads/4", method: .get)) as? JSON)
            let version = try #require((record["versions"] as? [JSON])?.first)
            #expect(version["_row"] == nil)
        }
    }

    @Test(arguments: HarnessStore.available)
    func pagingByCursorReadsEveryRowOnce(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let total = try await harness.count("classified")
        try await ServedStore.serve(harness) { client in
            var keys: [String] = []
            var uri = "/api/entities/classified/rows?limit=37"
            while true {
                let page = try #require(try ServedStore.json(try await client.execute(uri: uri, method: .get)) as? JSON)
                keys += (page["rows"] as? [JSON] ?? []).compactMap { $0["_key"] as? String }
                guard let next = page["next"] as? String else { break }
                uri = "/api/entities/classified/rows?limit=37&after=\(next)"
            }
            #expect(keys.count == total)
            #expect(Set(keys).count == total)
        }
    }

    /// A column's values in a page's JSON, comparable: integers, booleans (false first) and
    /// texts (ISO 8601 times sort as text).
    static func sortKey(_ value: Any?) -> String {
        switch value {
        case let flag as Bool: flag ? "1" : "0"
        case let number as Int: String(format: "%020d", number)
        case let text as String: text
        default: ""
        }
    }

    @Test(arguments: HarnessStore.available, ["-price", "-is_urgent", "created_at"])
    func sortingByAColumnPagesInItsOrder(store: HarnessStore, sort: String) async throws {
        let harness = try await ServedStore.harness(store)
        let total = try await harness.count("classified")
        let column = sort.hasPrefix("-") ? String(sort.dropFirst()) : sort
        try await ServedStore.serve(harness) { client in
            var values: [String] = []
            var keys: Set<String> = []
            var uri = "/api/entities/classified/rows?limit=50&sort=\(sort)"
            while true {
                let page = try #require(try ServedStore.json(try await client.execute(uri: uri, method: .get)) as? JSON)
                for row in page["rows"] as? [JSON] ?? [] {
                    values.append(Self.sortKey(row[column]))
                    keys.insert(row["_key"] as? String ?? "")
                }
                guard let next = page["next"] as? String else { break }
                uri = "/api/entities/classified/rows?limit=50&sort=\(sort)&after=\(next)"
            }
            #expect(values == (sort.hasPrefix("-") ? values.sorted(by: >) : values.sorted()))
            #expect(keys.count == total)
        }
    }

    @Test func aBadFilterIsABadRequestThatSaysWhy() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let unknownField = try await client.execute(
                uri: "/api/entities/classified/rows?where=colour%3Dred", method: .get)
            #expect(unknownField.status == .badRequest)
            #expect(ServedStore.text(unknownField).contains("has no field 'colour'"))
            let badValue = try await client.execute(
                uri: "/api/entities/classified/rows?where=price%3Ccheap", method: .get)
            #expect(badValue.status == .badRequest)
            let noOperator = try await client.execute(uri: "/api/entities/classified/rows?where=price", method: .get)
            #expect(noOperator.status == .badRequest)
            let badCursor = try await client.execute(uri: "/api/entities/classified/rows?after=xyz", method: .get)
            #expect(badCursor.status == .badRequest)
            let badLimit = try await client.execute(uri: "/api/entities/classified/rows?limit=100000", method: .get)
            #expect(badLimit.status == .badRequest)
        }
    }

    @Test func anUnknownEntityIsNotFound() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            for uri in ["/api/entities/nope/rows", "/api/entities/nope/facets", "/api/entities/nope/export.csv"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound, "\(uri)")
                #expect(ServedStore.text(response).contains("no entity 'nope'"), "\(uri)")
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func facetsCountCategoriesWithTheirNames(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(harness) { client in
            let answer = try ServedStore.json(
                try await client.execute(uri: "/api/entities/classified/facets", method: .get))
            let facets = try #require((answer as? JSON)?["facets"] as? [JSON])
            let category = try #require(facets.first { $0["field"] as? String == "category_id" })
            let counts = try #require(category["counts"] as? [JSON])
            #expect(counts.contains { $0["label"] as? String == "Maison" })
            #expect(facets.contains { $0["field"] as? String == "is_urgent" })
        }
    }

    @Test(arguments: HarnessStore.available)
    func aBooleanFacetIsLabelledYesAndNo(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(harness) { client in
            let answer = try ServedStore.json(
                try await client.execute(uri: "/api/entities/classified/facets", method: .get))
            let facets = try #require((answer as? JSON)?["facets"] as? [JSON])
            let urgent = try #require(facets.first { $0["field"] as? String == "is_urgent" })
            let labels = Set((urgent["counts"] as? [JSON] ?? []).compactMap { $0["label"] as? String })
            #expect(labels == ["yes", "no"])
        }
    }

    @Test func aColumnWhoseValuesNeverRepeatIsNoFacet() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            // In category 4, a few ads have a siret, each a different one: no facet.
            let answer = try ServedStore.json(
                try await client.execute(
                    uri: "/api/entities/classified/facets?where=category_id%3D4", method: .get))
            let fields = ((answer as? JSON)?["facets"] as? [JSON] ?? []).compactMap { $0["field"] as? String }
            #expect(fields.contains("is_urgent"))
            #expect(!fields.contains("siret"))
        }
    }

    @Test func aColumnOfMostlyDistinctValuesIsNoFacet() async throws {
        // Five names, one of them twice: each row but one would be a value of its own.
        let yaml = """
            feeds:
              - { name: fruit, adapter: json, url: items.json, records: items, entity: item, key: id,
                  fields: { id: int, name: string, kind: string } }
            """
        let items = [("a", "x"), ("a", "x"), ("b", "x"), ("c", "y"), ("d", "y"), ("e", "y")].enumerated().map {
            #"{"id": \#($0.offset), "name": "\#($0.element.0)", "kind": "\#($0.element.1)"}"#
        }
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]), yaml: yaml,
            files: ["items.json": Data(#"{"items": [\#(items.joined(separator: ","))]}"#.utf8)])
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let answer = try ServedStore.json(try await client.execute(uri: "/api/entities/item/facets", method: .get))
            let fields = ((answer as? JSON)?["facets"] as? [JSON] ?? []).compactMap { $0["field"] as? String }
            #expect(fields == ["kind"])
        }
    }

    @Test(arguments: HarnessStore.available)
    func aRecordIsFoundByFeedAndKey(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(harness) { client in
            let found = try await client.execute(uri: "/api/entities/category/records/ads/4", method: .get)
            #expect(found.status == .ok)
            let versions = try #require((try ServedStore.json(found) as? JSON)?["versions"] as? [JSON])
            #expect(versions.first?["name"] as? String == "Maison")
            let missing = try await client.execute(uri: "/api/entities/category/records/ads/999", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    @Test(arguments: HarnessStore.available)
    func aDownloadIsTheBytesOfExport(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let exporter = try Exporter(config: try harness.config())
        for format in [ExportFormat.csv, .ndjson, .json] {
            var request = ExportRequest(entity: "classified")
            request.filters = [try ExportFilter(where: "category=Maison")]
            request.order = [OrderTerm("price", descending: true)]
            let output = ExportOutput.memory()
            try await exporter.export(request, format: format, to: output)
            let expected = output.bytes
            try await ServedStore.serve(harness) { client in
                let response = try await client.execute(
                    uri: "/api/entities/classified/export.\(format.rawValue)?where=category%3DMaison&sort=-price",
                    method: .get)
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView) == expected, "\(format)")
            }
        }
    }

    @Test func theOpenAPIDocumentDescribesEveryRoute() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let document = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/openapi.json", method: .get)) as? JSON)
            let paths = try #require(document["paths"] as? JSON)
            for path in [
                "/api/feeds", "/api/feeds/{feed}/runs", "/api/feeds/{feed}/rejects", "/api/entities",
                "/api/entities/{entity}/rows", "/api/entities/{entity}/facets",
                "/api/entities/{entity}/records/{feed}/{key}", "/api/entities/{entity}/export.{format}", "/api/price",
            ] {
                #expect(paths[path] != nil, "\(path)")
            }
        }
    }

    @Test func priceNeedsThePricingOfTheCommand() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let status3 = try await client.execute(uri: "/api/price?item=milk", method: .get).status
            #expect(status3 == .notFound)
        }
    }
}
