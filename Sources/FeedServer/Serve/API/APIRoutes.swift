import FeedEngine
import FeedKit
import Foundation
import Hummingbird

/// The JSON API under `/api` (described by ``OpenAPIDocument`` at `/api/openapi.json`).
struct APIRoutes: Sendable {
    /// The most runs or rejects one answer lists.
    static let maximumHistory = 200

    let settings: ServeSettings
    var browser: StoreBrowser { settings.browser }

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/openapi.json") { _, _ in jsonResponse(OpenAPIDocument.text) }
        router.get("/api/feeds") { _, _ in
            let settings = self.settings
            let feeds = try await ServeError.reading { try await settings.overview() }
            return jsonResponse(JSONText.line(feeds.map(OverviewJSON.init)))
        }
        router.get("/api/feeds/:feed/runs") { request, context in
            let feed = try context.parameters.decoded("feed")
            let query = try request.decodedQuery()
            let limit = try Self.limit(query, default: 20)
            let before = try query["before"].map { text throws(ServeError) -> Int64 in
                guard let run = Int64(text), run >= 1 else {
                    throw .badRequest("before '\(text)': expected a run id (a whole number from 1)")
                }
                return run
            }
            let runs = try await ServeError.reading { () async throws -> [RunRecord] in
                try await requireFeed(feed)
                return try await browser.store.runs(feed: feed, before: before, limit: limit)
            }
            return jsonResponse(
                JSONText.line(RunsPage(runs: runs, next: runs.count == limit ? runs.last?.run : nil)))
        }
        router.get("/api/feeds/:feed/rejects") { request, context in
            let feed = try context.parameters.decoded("feed")
            let limit = try Self.limit(try request.decodedQuery(), default: 50)
            let rejects = try await ServeError.reading { () async throws -> [RejectRecord] in
                try await requireFeed(feed)
                return try await browser.store.rejects(feed: feed, run: nil, limit: limit)
            }
            return jsonResponse(JSONText.line(["rejects": rejects]))
        }
        router.get("/api/entities") { _, _ in
            jsonResponse(
                JSONText.line(try await ServeError.reading { try await browser.tables().map(EntityDescription.init) }))
        }
        router.get("/api/entities/:entity/rows") { request, context in
            let view = try EntityPageQuery(
                entity: try context.parameters.decoded("entity"), query: try request.decodedQuery())
            let pageRequest = try view.pageRequest()
            let (page, searched) = try await ServeError.reading { () async throws -> (EntityPage, [String]) in
                let page = try await browser.page(pageRequest, limit: view.limit)
                return (page, pageRequest.search == nil ? [] : try await browser.schema(of: view.entity)?.search ?? [])
            }
            return jsonResponse(Self.json(page, search: pageRequest.search, columns: searched))
        }
        router.get("/api/entities/:entity/facets") { request, context in
            let view = try EntityPageQuery(
                entity: try context.parameters.decoded("entity"), query: try request.decodedQuery())
            let exportRequest = try view.exportRequest()
            let facets = try await ServeError.reading { try await browser.facets(exportRequest) }
            return jsonResponse(JSONText.line(["facets": facets.map(FacetDocument.init)]))
        }
        router.get("/api/entities/:entity/records/:feed/:key") { _, context in
            let entity = try context.parameters.decoded("entity")
            let feed = try context.parameters.decoded("feed")
            let key = try context.parameters.decoded("key")
            guard
                let record = try await ServeError.reading({
                    try await browser.record(entity: entity, feed: feed, key: key)
                })
            else {
                throw ServeError.noRecord(entity: entity, feed: feed, key: key)
            }
            var children = "{"
            for (index, child) in record.children.enumerated() {
                children += (index > 0 ? "," : "") + JSONValue.string(child.table.name).jsonText + ":" + child.rowsJSON
            }
            return jsonResponse("{\"children\":\(children)},\"versions\":\(record.versions.tableColumns.rowsJSON)}")
        }
        // `export.csv`, `export.ndjson`, `export.json`: a path parameter is a whole segment.
        router.get("/api/entities/:entity/:file") { request, context in
            let file = try context.parameters.decoded("file")
            guard file.hasPrefix("export.") else { throw ServeError.notFound("no route \(request.uri.path)") }
            return try await Download(browser: browser).response(
                entity: try context.parameters.decoded("entity"), format: String(file.dropFirst("export.".count)),
                query: try request.decodedQuery())
        }
        router.get("/api/price") { request, _ in
            guard let pricing = settings.pricing else { throw ServeError.noPricing }
            let query = try request.decodedQuery()
            let items = query[values: "item"]
            let currency = query["currency"] ?? pricing.catalogCurrency
            return jsonResponse(try await pricing.priceJSON(items: items, currency: currency, rows: browser.store))
        }
    }

    private func requireFeed(_ feed: String) async throws {
        guard try await browser.hasFeed(feed) else { throw ServeError.noFeed(feed) }
    }

    static func limit(_ query: ServeQuery, default value: Int) throws(ServeError) -> Int {
        guard let text = query["limit"] else { return value }
        guard let number = Int(text), (1...maximumHistory).contains(number) else {
            throw .badRequest("limit '\(text)': expected a number from 1 to \(maximumHistory)")
        }
        return number
    }

    /// A page as JSON: the fields with their types, the rows as `feedwork export --format json`
    /// writes them, and the next page's cursor. With a `search`, also `highlights`: for each
    /// row, its search `columns` as HTML, escaped, with the words found in `<mark>`.
    static func json(_ page: EntityPage, search: SearchQuery? = nil, columns: [String] = []) -> String {
        let page = page.tableColumns
        let fields = JSONText.line(page.fields.map(FieldDescription.init))
        let next = page.next.map { JSONValue.string($0.token).jsonText } ?? "null"
        let highlights =
            search.map { search in
                ",\"highlights\":" + JSONText.line(page.rows.map { search.highlights(columns, page: page, row: $0) })
            } ?? ""
        return
            "{\"entity\":\(JSONValue.string(page.table.name).jsonText),\"fields\":\(fields),\"next\":\(next),\"rows\":\(page.rowsJSON)\(highlights)}"
    }
}

/// A page of a feed's run history; `next` is the `before` of the following page.
struct RunsPage: Encodable {
    var runs: [RunRecord]
    var next: Int64?
}

/// A column as the API describes it.
struct FieldDescription: Encodable {
    var name: String
    var type: String
    var currency: String?
    var meta: Bool

    init(_ field: ExportField) {
        name = field.name
        type = field.type.rawValue
        currency = field.currency
        meta = field.isMeta
    }
}

/// An entity or child table as `/api/entities` lists it.
struct EntityDescription: Encodable {
    var name: String
    var parent: String?
    var key: [String]
    var fields: [FieldDescription]

    init(_ table: ExportTable) {
        name = table.name
        parent = table.parent
        key = table.key
        fields = table.allFields.map(FieldDescription.init)
    }
}

/// A facet as the API gives it: values as text (null as null), most rows first.
struct FacetDocument: Encodable {
    struct Count: Encodable {
        var value: String?
        var label: String?
        var rows: Int
    }

    var field: String
    var sampled: Bool
    var counts: [Count]

    init(_ facet: Facet) {
        field = facet.field
        sampled = facet.sampled
        counts = facet.counts.map { Count(value: ValueText.plain($0.value), label: $0.label, rows: $0.rows) }
    }
}
