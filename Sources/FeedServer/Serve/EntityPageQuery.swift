import FeedEngine
import FeedKit
import Foundation

/// What a request asks to see of an entity, from its query string: `where` (repeatable, the
/// conditions of `feedwork export --where`), `feed` (repeatable), `sort` (a field, `-` for
/// descending), `after` (a page's cursor), `limit` (rows per page) and `q` (words to search
/// the entity's full-text index for, ``SearchQuery``). A query of rows for a
/// page or the API, not the SQL view `<entity>_view` the store keeps (FeedEngine's `EntityView`).
struct EntityPageQuery: Sendable {
    static let defaultLimit = 50

    var entity: String
    var conditions: [String]
    var feeds: [String]
    var sort: String?
    var after: String?
    var limit: Int
    /// The words searched for; `nil` when the request has none (or only spaces).
    var q: String?

    init(entity: String, query: ServeQuery) throws(ServeError) {
        self.entity = entity
        conditions = query[values: "where"].filter { !$0.isEmpty }
        // A page's filter form sends one more condition as field, operator and value.
        if let field = query["field"], !field.isEmpty, let op = query["op"], let value = query["value"],
            !value.isEmpty || op == "=" || op == "!="
        {
            conditions.append(field + op + value)
        }
        feeds = query[values: "feed"].filter { !$0.isEmpty }
        sort = query["sort"].flatMap { $0.isEmpty ? nil : $0 }
        after = query["after"].flatMap { $0.isEmpty ? nil : $0 }
        q = query["q"].flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        if let text = query["limit"] {
            guard let number = Int(text), (1...StoreBrowser.maximumPageSize).contains(number) else {
                throw .badRequest(
                    "limit '\(text)': expected a number of rows from 1 to \(StoreBrowser.maximumPageSize)")
            }
            limit = number
        } else {
            limit = Self.defaultLimit
        }
    }

    /// The sort as an order term.
    var sortTerm: OrderTerm? {
        guard let sort else { return nil }
        return sort.hasPrefix("-") ? OrderTerm(String(sort.dropFirst()), descending: true) : OrderTerm(sort)
    }

    /// The export request of this view: its entity, feeds, conditions and (for downloads) order.
    func exportRequest() throws(ServeError) -> ExportRequest {
        var request = ExportRequest(entity: entity)
        request.feeds = feeds
        do {
            request.filters = try conditions.map { text throws(ExportError) in try ExportFilter(where: text) }
        } catch {
            throw .badRequest(error.message)
        }
        if let sortTerm { request.order = [sortTerm] }
        request.search = try searchQuery
        return request
    }

    /// The words of `q`, if any.
    var searchQuery: SearchQuery? {
        get throws(ServeError) {
            do {
                return try q.map { text throws(ExportError) in try SearchQuery(text) }
            } catch {
                throw .badRequest(error.message)
            }
        }
    }

    /// The request of one page of this view.
    func pageRequest() throws(ServeError) -> ExportRequest {
        var request = try exportRequest()
        request.order = []
        do {
            request.keyset = Keyset(
                sort: sortTerm, after: try after.map { text throws(ExportError) in try PageCursor(token: text).values })
        } catch {
            throw .badRequest(error.message)
        }
        return request
    }

    /// The query string of this view, with `changes` applied (a nil value removes the key).
    func query(_ changes: [String: String?] = [:]) -> String {
        var pairs: [(String, String)] = conditions.map { ("where", $0) } + feeds.map { ("feed", $0) }
        var single: [String: String] = [:]
        if let sort { single["sort"] = sort }
        if let after { single["after"] = after }
        if let q { single["q"] = q }
        if limit != Self.defaultLimit { single["limit"] = String(limit) }
        for (key, value) in changes { single[key] = value }
        for key in single.keys.sorted() { if let value = single[key] { pairs.append((key, value)) } }
        return pairs.map { "\($0.0)=\(URLText.encode($0.1))" }.joined(separator: "&")
    }

    /// The `feedwork export` command line that writes what a download of this view holds.
    func exportCommand(format: String) -> String {
        var words = ["feedwork", "export", entity, "--format", format]
        for feed in feeds { words += ["--feed", feed] }
        for condition in conditions { words += ["--where", condition] }
        if let q { words += ["--search", q] }
        if let sort { words += ["--order", sort] }
        return words.map(URLText.shellQuoted).joined(separator: " ")
    }
}
