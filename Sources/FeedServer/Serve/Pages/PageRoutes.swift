import FeedEngine
import FeedKit
import Foundation
import Hummingbird
import HummingbirdCore

/// The HTML pages: overview, feed, entities, entity (table or cards), record and basket.
struct PageRoutes: Sendable {
    let settings: ServeSettings
    var browser: StoreBrowser { settings.browser }

    func add(to router: Router<BasicRequestContext>) {
        router.get("/assets/app.css") { _, _ in asset(Assets.css, type: "text/css; charset=utf-8") }
        router.get("/assets/app.js") { _, _ in asset(Assets.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/") { _, _ in try await overview() }
        router.get("/feeds/:feed") { request, context in
            try await feed(try context.parameters.decoded("feed"), before: try request.decodedQuery()["before"])
        }
        router.get("/entities") { _, _ in try await entities() }
        router.get("/entities/:entity") { request, context in
            try await entity(try context.parameters.decoded("entity"), query: try request.decodedQuery())
        }
        router.get("/entities/:entity/records/:feed/:key") { _, context in
            try await record(
                entity: try context.parameters.decoded("entity"), feed: try context.parameters.decoded("feed"),
                key: try context.parameters.decoded("key"))
        }
        router.get("/basket") { request, _ in try await basket(try request.decodedQuery()) }
        router.get("/media/:hash") { _, context in try await media(try context.parameters.decoded("hash")) }
    }

    /// A mirrored image by its hash: its own type, never sniffed, kept for a year by any cache
    /// (its name is its content), and sandboxed should a browser open it as a document.
    private func media(_ hash: String) async throws -> Response {
        let browser = self.browser
        guard let media = try await ServeError.reading({ try await browser.media(hash: hash) }) else {
            throw ServeError.noMedia(hash)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: media.type, .cacheControl: "public, max-age=31536000, immutable",
                .contentSecurityPolicy: "sandbox", .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: media.bytes)))
    }

    private func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "max-age=300"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private func html(_ page: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    private func render(_ template: String, title: String, refresh: Int? = nil, _ context: [String: Any])
        throws(ServeError) -> Response
    {
        html(try Pages.render(template, title: title, store: browser.storeDescription, refresh: refresh, context))
    }

    // MARK: overview

    private func overview() async throws -> Response {
        let settings = self.settings
        let feeds = try await ServeError.reading { try await settings.overview() }
        let running = feeds.contains { $0.last?.status == "running" }
        let rows: [[String: Any]] = feeds.map { summary in
            let last = summary.last
            return [
                "feed": summary.name, "feedPath": Pages.segment(summary.name),
                "feedQuery": URLText.encode(summary.name),
                "adapter": last?.adapter ?? summary.adapter, "time": last.map { $0.finishedAt ?? $0.startedAt } ?? "",
                "status": last?.status ?? "never run", "statusClass": last?.status ?? "never",
                "ran": last != nil, "error": last?.error ?? "", "notes": last?.notes ?? [],
                "counts": last.map { "\($0.inserted) / \($0.updated) / \($0.unchanged) / \($0.deleted)" } ?? "",
                "chart": Chart.svg(summary.recent, feed: summary.name, schedule: settings.schedules[summary.name]),
                "rejects": summary.rejects > 0 ? String(summary.rejects) : "",
                "media": summary.mediaText ?? "",
                "rows": summary.rows.map {
                    ["entity": $0.entity, "entityPath": Pages.segment($0.entity), "rows": $0.rows]
                },
            ]
        }
        return try render(
            "overview", title: "Feeds", refresh: running ? 5 : nil, ["feeds": rows, "refreshing": running])
    }

    // MARK: feed

    private func feed(_ name: String, before text: String?) async throws -> Response {
        let before = text.flatMap { Int64($0) }
        let limit = 20
        let (runs, rejects) = try await ServeError.reading { () async throws -> ([RunRecord], [RejectRecord]) in
            guard try await browser.hasFeed(name) else {
                throw ServeError.noFeed(name)
            }
            return (
                try await browser.store.runs(feed: name, before: before, limit: limit),
                try await browser.store.rejects(feed: name, run: nil, limit: 50)
            )
        }
        let context: [String: Any] = [
            "adapter": runs.first?.adapter ?? "",
            "chart": Chart.svg(runs, feed: name, schedule: settings.schedules[name], size: .large),
            "runs": runs.map { run -> [String: Any] in
                [
                    "run": run.run, "status": run.status, "started": run.startedAt,
                    "duration": run.durationMilliseconds.map { "\($0) ms" } ?? "", "inserted": run.inserted,
                    "updated": run.updated, "unchanged": run.unchanged, "deleted": run.deleted,
                    "rejected": run.rejected,
                    "requests": run.requests, "error": run.error ?? "", "notes": run.notes,
                ]
            },
            "older": runs.count == limit ? String(runs.last?.run ?? 0) : "",
            "rejects": rejects.map { reject -> [String: Any] in
                [
                    "reason": reject.reason, "run": reject.run, "entity": reject.entity, "path": reject.path,
                    "url": reject.url ?? "", "page": reject.page.map(String.init) ?? "",
                    "raw": ValueText.pretty(reject.raw),
                ]
            },
        ]
        return try render("feed", title: "Feed \(name)", context)
    }

    // MARK: entities

    private func entities() async throws -> Response {
        let tables = try await ServeError.reading { try await browser.tables() }
        let rows = tables.map { table -> [String: Any] in
            [
                "name": table.name, "path": Pages.segment(table.name), "parent": table.parent ?? "",
                "columns": table.dataFields.map(\.name).joined(separator: ", "),
            ]
        }
        return try render("entities", title: "Entities", ["tables": rows])
    }

    private func entity(_ name: String, query: ServeQuery) async throws -> Response {
        var view = try EntityPageQuery(entity: name, query: query)
        let conditions = view.conditions
        let (schema, chips) = try await ServeError.reading { () async throws -> (EntitySchema?, [ConditionChip]) in
            var chips: [ConditionChip] = []
            for condition in conditions {
                chips.append(try await ConditionChip(condition, entity: name, browser: browser))
            }
            return (try await browser.schema(of: name), chips)
        }
        let cards = CardLayout(schema: schema)
        let showCards = cards != nil && query["view"] != "table"
        // A search ranks its rows, unless the user sorts them.
        if showCards, view.sort == nil, view.q == nil, let badge = cards?.badge { view.sort = "-" + badge }
        let search = try view.searchQuery
        let searched = search == nil ? [] : schema?.search ?? []
        let pageRequest = try view.pageRequest()
        var firstPage = view
        firstPage.after = nil
        let sqlRequest = try firstPage.pageRequest()
        let limit = view.limit
        let sqlOpen = settings.sqlRefusal == nil
        let (page, sql) = try await ServeError.reading { () async throws -> (EntityPage, String?) in
            (
                try await browser.page(pageRequest, limit: limit),
                sqlOpen ? try await browser.sqlText(for: sqlRequest) : nil
            )
        }
        let shown = page.fields.filter { !$0.isMeta || $0.name == "_feed" || $0.name == "_key" }
        let money = Set(schema?.columns.filter { $0.role == .money }.map(\.name) ?? [])
        var context: [String: Any] = [
            "entityPath": Pages.segment(name),
            "hidden": Self.hiddenInputs(view),
            "fieldNames": (page.table.dataFields + page.table.metaFields).filter { $0.name != "_hash" }.map { $0.name },
            "ops": ["=", "!=", "<", "<=", ">", ">=", "~"],
            "conditions": chips.enumerated().map { index, chip -> [String: Any] in
                var remaining = view
                remaining.conditions.remove(at: index)
                remaining.after = nil
                return ["text": chip.text, "condition": chip.condition, "remove": remaining.query()]
            },
            "feeds": view.feeds, "sort": view.sort ?? "",
            "searchable": !(schema?.search.isEmpty ?? true), "q": view.q ?? "",
            "searchHidden": Self.searchInputs(view, cards: cards != nil ? (showCards ? "cards" : "table") : nil),
            "downloadQuery": Self.downloadQuery(view), "command": view.exportCommand(format: "csv"),
            "sqlQuery": sql.map { "sql=" + URLText.encode($0) } ?? "",
            "hasCards": cards != nil, "view": showCards ? "cards" : "table",
            "tableQuery": view.query(["view": "table", "after": nil]),
            "cardsQuery": view.query(["view": nil, "after": nil]),
            "columns": shown.map { field -> [String: Any] in
                let descending = view.sort == field.name
                let arrow = view.sort == field.name ? " ▲" : view.sort == "-" + field.name ? " ▼" : ""
                return [
                    "name": field.name, "type": field.currency.map { "money \($0)" } ?? field.type.rawValue,
                    "arrow": arrow,
                    "sortQuery": view.query(["sort": descending ? "-" + field.name : field.name, "after": nil]),
                ]
            },
            "rowsHTML": TableBody.html(
                page.rows.map { row in
                    let cells = shown.map { field in
                        let field = money.contains(field.name) ? page.moneyField(field, in: row) : field
                        var cell = Self.cell(page.value(field.name, in: row), field: field)
                        if let search, searched.contains(field.name), let text = cell["text"] as? String {
                            cell["html"] = search.highlighted(text)
                        }
                        return cell
                    }
                    return (cells, Self.recordPath(name, page: page, row: row))
                }),
            "first": view.after == nil ? "" : view.query(["after": nil]),
            "next": page.next.map { view.query(["after": $0.token]) } ?? "",
        ]
        if showCards, let cards {
            let urls = cards.mirrors ? cards.imageURLs(page: page) : []
            let mirrored =
                urls.isEmpty ? [:] : try await ServeError.reading { try await browser.mediaHashes(urls: urls) }
            context["cards"] = [
                "items": page.rows.map {
                    cards.card(
                        page: page, row: $0, record: Self.recordPath(name, page: page, row: $0), mirrored: mirrored,
                        search: search, searched: searched)
                }
            ]
        }
        return try render("entity", title: name, context)
    }

    /// The view's conditions, feeds, sort and search, carried by the filter form.
    static func hiddenInputs(_ view: EntityPageQuery) -> [[String: String]] {
        var inputs: [[String: String]] = view.conditions.map { ["name": "where", "value": $0] }
        inputs += view.feeds.map { ["name": "feed", "value": $0] }
        if let sort = view.sort { inputs.append(["name": "sort", "value": sort]) }
        if let q = view.q { inputs.append(["name": "q", "value": q]) }
        return inputs
    }

    /// The view's conditions, feeds and `view` (cards or table), carried by the search form: not
    /// its sort, so a new search ranks its rows.
    static func searchInputs(_ view: EntityPageQuery, cards: String?) -> [[String: String]] {
        var inputs: [[String: String]] = view.conditions.map { ["name": "where", "value": $0] }
        inputs += view.feeds.map { ["name": "feed", "value": $0] }
        if let cards { inputs.append(["name": "view", "value": cards]) }
        return inputs
    }

    /// The download's query: the view's feeds, conditions and sort (as `--order`).
    static func downloadQuery(_ view: EntityPageQuery) -> String {
        var download = view
        download.after = nil
        download.limit = EntityPageQuery.defaultLimit
        return download.query()
    }

    static func recordPath(_ entity: String, page: EntityPage, row: [FieldValue]) -> String {
        let feed = ValueText.plain(page.value("_feed", in: row)) ?? ""
        let key = ValueText.plain(page.value("_key", in: row)) ?? ""
        let table = page.table.parent ?? entity
        return "/entities/\(Pages.segment(table))/records/\(Pages.segment(feed))/\(Pages.segment(key))"
    }

    /// The longest text a table cell shows; the rest is on the record's page.
    static let cellLength = 160

    static func cell(_ value: FieldValue, field: ExportField) -> [String: Any] {
        var text = ValueText.display(value, field: field)
        if field.type == .json, value != .null {
            return [
                "kind": "json", "short": String(text.prefix(40)) + (text.count > 40 ? "…" : ""),
                "json": ValueText.pretty(text),
            ]
        }
        if text.count > cellLength { text = text.prefix(cellLength) + "…" }
        return [
            "kind": value == .null ? "null" : field.currency != nil ? "money" : field.type.rawValue, "text": text,
            "json": "",
        ]
    }

    // MARK: record

    private func record(entity: String, feed: String, key: String) async throws -> Response {
        guard
            let record = try await ServeError.reading({ try await browser.record(entity: entity, feed: feed, key: key) }
            )
        else {
            throw ServeError.noRecord(entity: entity, feed: feed, key: key)
        }
        let versions = record.versions
        let reader = browser
        let schema = try await ServeError.reading { try await reader.schema(of: entity) }
        let mediaColumns = Set(schema?.mediaColumns ?? [])
        // A child list's media columns, by its table's name.
        var listMedia: [String: Set<String>] = [:]
        for table in schema?.mediaTables ?? [] { listMedia[table.name] = Set(table.columns) }
        var urls = versions.rows.flatMap { row in
            mediaColumns.compactMap { ValueText.plain(versions.value($0, in: row)) }
        }
        for child in record.children {
            let columns = listMedia[child.table.name] ?? []
            urls += child.rows.flatMap { row in columns.compactMap { ValueText.plain(child.value($0, in: row)) } }
        }
        let mirrored = urls.isEmpty ? [:] : try await ServeError.reading { try await reader.mediaHashes(urls: urls) }
        let context: [String: Any] = [
            "versions": versions.rows.enumerated().map { index, row -> [String: Any] in
                [
                    "heading": versions.rows.count > 1 ? "Version \(index + 1) of \(versions.rows.count)" : "Record",
                    "fields": versions.fields.filter { $0.name != EntityPage.tiebreakName }.map {
                        field -> [String: Any] in
                        let value = versions.value(field.name, in: row)
                        let text = ValueText.display(value, field: field)
                        let picture = CardLayout.picture(
                            of: value, media: mediaColumns.contains(field.name), mirrored: mirrored)
                        return [
                            "name": field.name, "text": text,
                            "json": field.type == .json && value != .null ? ValueText.pretty(text) : "",
                            "image": picture.src, "placeholder": picture.placeholder,
                        ]
                    },
                ]
            },
            "children": record.children.map { child -> [String: Any] in
                let fields = child.fields.filter { !$0.isMeta || $0.name == "_position" }
                let media = listMedia[child.table.name] ?? []
                return [
                    "name": child.table.name, "columns": fields.map(\.name),
                    "rows": child.rows.map { row in
                        [
                            "cells": fields.map { field -> [String: Any] in
                                let value = child.value(field.name, in: row)
                                let picture = CardLayout.picture(
                                    of: value, media: media.contains(field.name), mirrored: mirrored)
                                return [
                                    "text": ValueText.display(value, field: field), "image": picture.src,
                                    "placeholder": picture.placeholder,
                                ]
                            }
                        ]
                    },
                ]
            },
        ]
        return try render("record", title: "\(entity) \(key)", context)
    }

    // MARK: basket

    private func basket(_ query: ServeQuery) async throws -> Response {
        guard let pricing = settings.pricing else { throw ServeError.noPricing }
        let currency = query["currency"] ?? "EUR"
        var items: [String] = []
        var goods: [[String: Any]] = []
        for good in pricing.goods {
            // Any quantity but none and 0 goes to the pricing, which says what is wrong with it.
            let quantity = query[good.name].map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !quantity.isEmpty, quantity != "0" { items.append("\(good.name)=\(quantity)") }
            goods.append([
                "name": good.name, "unit": good.unit, "price": good.price,
                "quantity": quantity.isEmpty ? "0" : quantity,
            ])
        }
        var context: [String: Any] = ["goods": goods, "currency": currency, "catalogCurrency": pricing.catalogCurrency]
        if !items.isEmpty {
            do {
                let json = try await pricing.priceJSON(items: items, currency: currency, rows: browser.store)
                if let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] {
                    context["priced"] = object
                }
            } catch let error as ServeError {
                context["problem"] = error.message
            }
        }
        return try render("basket", title: "Basket", context)
    }
}
