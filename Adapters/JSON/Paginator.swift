import FeedKit
import Foundation

/// One page to fetch: the feed's URL with page parameters, or a link a response gave.
struct PageRequest: Sendable, Hashable {
    /// A next link (absolute, or a path), or `nil` for the feed's own URL and parameters.
    var link: String?
    /// Page parameters added to the query (offset and limit, page number, cursor).
    var query: [QueryItem] = []
    /// The offset or page number of this page (0 for link and cursor pages).
    var position = 0
    /// The cursor this page is asked with (`cursor` pagination; `nil` on the first page).
    var cursor: String?

    struct QueryItem: Sendable, Hashable {
        var name: String
        var value: String
    }
}

/// What a response says about the pages after it.
struct PageFacts: Sendable, Equatable {
    var recordCount: Int
    /// The total number of records, from `total_path`.
    var total: Int?
    /// The total number of pages, from `total_pages_path`.
    var totalPages: Int?
    /// The next cursor (`cursor`) or the next link (`next_url`, `link_header`); `nil` on the last page.
    var continuation: String?
    /// The value at `has_more_path`: `false` on the last page.
    var hasMore: Bool?
}

/// The pagination of a feed, compiled from its options: which page comes first, what a
/// response says about the rest, and which page comes next.
///
/// It is a pure value: no I/O, so every kind can be tested on its own.
struct Paginator: Sendable {
    enum Kind: Sendable {
        case none
        case offset(limit: Int, limitParam: String, offsetParam: String, start: Int)
        /// `size` is sent as `sizeParam` when given.
        case page(param: String, start: Int, size: Int?, sizeParam: String)
        /// `size` is sent as `sizeParam` when given.
        case cursor(path: JSONPath, param: String, size: Int?, sizeParam: String)
        case nextURL(path: JSONPath)
        case linkHeader
    }

    let kind: Kind
    var totalPath: JSONPath?
    var totalPagesPath: JSONPath?
    var hasMorePath: JSONPath?
    /// A walk that ends early is a note, not a failed pass (`allow_incomplete: true`).
    var allowsIncomplete = false
    var stopOnShortPage = false
    var maxPages = 10_000
    var parallel = 1

    /// The first page.
    var first: PageRequest {
        switch kind {
        case .none, .nextURL, .linkHeader: PageRequest()
        case .cursor(_, _, let size, let sizeParam):
            PageRequest(query: size.map { [.init(name: sizeParam, value: String($0))] } ?? [])
        case .offset(let limit, let limitParam, let offsetParam, let start):
            PageRequest(
                query: [.init(name: offsetParam, value: String(start)), .init(name: limitParam, value: String(limit))],
                position: start)
        case .page(let param, let start, let size, let sizeParam):
            pageRequest(number: start, param: param, size: size, sizeParam: sizeParam)
        }
    }

    private func pageRequest(number: Int, param: String, size: Int?, sizeParam: String) -> PageRequest {
        var query = [PageRequest.QueryItem(name: param, value: String(number))]
        if let size { query.append(.init(name: sizeParam, value: String(size))) }
        return PageRequest(query: query, position: number)
    }

    /// Reads the pagination facts of a response.
    ///
    /// - Throws: ``FactError`` naming the JSON path when a declared total or link has the wrong type.
    func facts(of document: JSONValue, recordCount: Int, headers: [String: String]) throws(FactError) -> PageFacts {
        var facts = PageFacts(recordCount: recordCount)
        if let totalPath { facts.total = try Self.count(at: totalPath, in: document) }
        if let totalPagesPath { facts.totalPages = try Self.count(at: totalPagesPath, in: document) }
        if let hasMorePath {
            switch hasMorePath.lookup(document) {
            case nil, .null?: facts.hasMore = false
            case .bool(let flag)?: facts.hasMore = flag
            case .string(let text)? where text == "true" || text == "false": facts.hasMore = text == "true"
            case let other?:
                throw FactError(
                    path: hasMorePath.description, message: "expected true or false, found \(other.kindName)")
            }
        }
        switch kind {
        case .none, .offset, .page: break
        case .cursor(let path, _, _, _):
            switch path.lookup(document) {
            case nil, .null?: break
            case .string(let text)?: facts.continuation = text.isEmpty ? nil : text
            case .number(let text)?: facts.continuation = text
            case let other?:
                throw FactError(
                    path: path.description, message: "expected a cursor (a string or a number), found \(other.kindName)"
                )
            }
        case .nextURL(let path):
            switch path.lookup(document) {
            case nil, .null?: break
            case .string(let text)?: facts.continuation = text.isEmpty ? nil : text
            case let other?:
                throw FactError(
                    path: path.description, message: "expected the next page's URL, found \(other.kindName)")
            }
        case .linkHeader:
            facts.continuation = headers["link"].flatMap { LinkHeader.target(of: $0, relation: "next") }
        }
        return facts
    }

    /// The page after `page`, or `nil` when `page` was the last one.
    ///
    /// - Parameter url: the URL `page` was fetched from (for relative next links).
    func next(after page: PageRequest, facts: PageFacts, url: String) -> PageRequest? {
        if facts.hasMore == false { return nil }
        switch kind {
        case .none:
            return nil
        case .offset(let limit, let limitParam, let offsetParam, _):
            guard facts.recordCount > 0, !(stopOnShortPage && facts.recordCount < limit) else { return nil }
            let offset = page.position + limit
            if let total = facts.total, offset >= total { return nil }
            return PageRequest(
                query: [
                    .init(name: offsetParam, value: String(offset)), .init(name: limitParam, value: String(limit)),
                ],
                position: offset)
        case .page(let param, let start, let size, let sizeParam):
            guard facts.recordCount > 0 else { return nil }
            if let size, stopOnShortPage, facts.recordCount < size { return nil }
            if let lastPage = lastPage(facts: facts, start: start, size: size), page.position >= lastPage { return nil }
            return pageRequest(number: page.position + 1, param: param, size: size, sizeParam: sizeParam)
        case .cursor(_, let param, let size, let sizeParam):
            guard let cursor = facts.continuation, facts.recordCount > 0 else { return nil }
            var query = [PageRequest.QueryItem(name: param, value: cursor)]
            if let size { query.append(.init(name: sizeParam, value: String(size))) }
            return PageRequest(query: query, cursor: cursor)
        case .nextURL, .linkHeader:
            guard let link = facts.continuation else { return nil }
            return PageRequest(link: Self.resolve(link, against: url))
        }
    }

    /// Every page after the first, when the first page's facts tell how many there are; `nil`
    /// when they do not (the pages must then be walked one by one).
    func remaining(after first: PageRequest, facts: PageFacts) -> [PageRequest]? {
        switch kind {
        case .offset(let limit, let limitParam, let offsetParam, _):
            guard let total = facts.total else { return nil }
            guard facts.recordCount > 0 else { return [] }
            return stride(from: first.position + limit, to: total, by: limit).map { offset in
                PageRequest(
                    query: [
                        .init(name: offsetParam, value: String(offset)), .init(name: limitParam, value: String(limit)),
                    ],
                    position: offset)
            }
        case .page(let param, let start, let size, let sizeParam):
            guard let lastPage = lastPage(facts: facts, start: start, size: size) else { return nil }
            guard facts.recordCount > 0, lastPage > first.position else { return [] }
            return ((first.position + 1)...lastPage).map {
                pageRequest(number: $0, param: param, size: size, sizeParam: sizeParam)
            }
        case .none, .cursor, .nextURL, .linkHeader:
            return nil
        }
    }

    /// The values a page's requests may hold (`{{page}}`, `{{offset}}`, `{{limit}}`,
    /// `{{page_cursor}}`), for `page`, the `number`th of the walk.
    func values(for page: PageRequest, number: Int) -> [String: String] {
        var values = ["page": String(number)]
        switch kind {
        case .none, .nextURL, .linkHeader: break
        case .offset(let limit, _, _, _):
            values["offset"] = String(page.position)
            values["limit"] = String(limit)
        case .page(_, let start, let size, _):
            values["page"] = String(page.position)
            if let size {
                values["limit"] = String(size)
                values["offset"] = String((page.position - start) * size)
            }
        case .cursor(_, _, let size, _):
            if let size { values["limit"] = String(size) }
            if let cursor = page.cursor { values["page_cursor"] = cursor }
        }
        return values
    }

    /// The values of ``values(for:number:)`` this pagination has, and why the others are missing.
    func unavailableValue(_ name: String) -> String? {
        switch (name, kind) {
        case ("page", _): nil
        case ("offset", .offset), ("limit", .offset): nil
        case ("offset", .page(_, _, _?, _)), ("limit", .page(_, _, _?, _)): nil
        case ("offset", .page), ("limit", .page): "page pagination gives {{\(name)}} only with limit (the page size)"
        case ("limit", .cursor(_, _, _?, _)): nil
        case ("limit", .cursor): "cursor pagination gives {{limit}} only with limit (the page size)"
        case ("page_cursor", .cursor): nil
        default: "{{\(name)}} has no value with \(kindName) pagination"
        }
    }

    private var kindName: String {
        switch kind {
        case .none: "none"
        case .offset: "offset"
        case .page: "page"
        case .cursor: "cursor"
        case .nextURL: "next_url"
        case .linkHeader: "link_header"
        }
    }

    /// Whether the pagination has a cursor of its own.
    var hasCursor: Bool {
        if case .cursor = kind { return true }
        return false
    }

    /// The number of the last page, from `total_pages_path` or from `total_path` and the page size.
    private func lastPage(facts: PageFacts, start: Int, size: Int?) -> Int? {
        if let totalPages = facts.totalPages { return start + totalPages - 1 }
        if let total = facts.total, let size, size > 0 { return start + (total + size - 1) / size - 1 }
        return nil
    }

    /// `link` made absolute against `base`: a URL relative to an http(s) URL, or a path relative
    /// to a file's folder.
    static func resolve(_ link: String, against base: String) -> String {
        if FetchRequest.isRemote(link) || link.lowercased().hasPrefix("file:")
            || link.hasPrefix("/") && !FetchRequest.isRemote(base)
        {
            return link
        }
        if FetchRequest.isRemote(base) {
            return URL(string: link, relativeTo: URL(string: base))?.absoluteString ?? link
        }
        let directory = (base.split(separator: "?", maxSplits: 1).first.map(String.init) ?? base)
        guard let slash = directory.lastIndex(of: "/") else { return link }
        return String(directory[...slash]) + link
    }

    private static func count(at path: JSONPath, in document: JSONValue) throws(FactError) -> Int {
        switch path.lookup(document) {
        case .number(let text)?:
            if let value = Int(text), value >= 0 { return value }
            throw FactError(path: path.description, message: "expected a count, found \(text)")
        case .string(let text)? where Int(text).map({ $0 >= 0 }) == true:
            return Int(text) ?? 0
        case nil:
            throw FactError(path: path.description, message: "the count is missing")
        case let other?:
            throw FactError(path: path.description, message: "expected a count, found \(other.kindName)")
        }
    }
}

/// A response whose pagination facts have the wrong type.
struct FactError: Error, Sendable {
    var path: String
    var message: String
}
