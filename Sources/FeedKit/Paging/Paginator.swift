import Foundation

/// How a feed's pages follow one another: which page comes first, and which comes next from
/// what a page said (``PageFacts``). Every adapter that pages uses it, so all page the same way.
///
/// It is a pure value: no I/O, so every kind can be tested on its own. The adapter fetches each
/// ``PageRequest`` (adding ``PageRequest/query`` to its URL, or fetching ``PageRequest/link``),
/// reads the page's facts, and asks for the next page until there is none; ``PageChecks``
/// catches a walk that goes round in circles or ends short of its total.
///
/// ```swift
/// var paginator = Paginator(kind: .offset(limit: 100, limitParam: "limit", offsetParam: "offset", start: 0))
/// var next: PageRequest? = paginator.first
/// while let page = next {
///     let response = try await pass.fetch(FetchRequest(url: URLQuery.appending(page.queryPairs, to: url)))
///     let records = ...
///     next = paginator.next(after: page, facts: PageFacts(recordCount: records.count), url: url)
/// }
/// ```
public struct Paginator: Sendable {
    /// The kinds of pagination. Where a page's facts come from (a JSON path, a header) is the
    /// adapter's business; a kind says only what is sent and how the next page is found.
    public enum Kind: Sendable {
        /// One page.
        case none
        /// `offsetParam` and `limitParam` in the query, from `start`, `limit` records a page.
        case offset(limit: Int, limitParam: String, offsetParam: String, start: Int)
        /// The page number as `param`, from `start`; `size` is sent as `sizeParam` when given.
        case page(param: String, start: Int, size: Int?, sizeParam: String)
        /// The cursor a page gave (``PageFacts/continuation``) as `param`; `size` is sent as
        /// `sizeParam` when given.
        case cursor(param: String, size: Int?, sizeParam: String)
        /// The next page's URL, found in a page's body (``PageFacts/continuation``).
        case nextURL
        /// The next page's URL, from the `Link` header's `rel="next"` (``LinkHeader``).
        case linkHeader
    }

    /// What is sent for each page, and where the next one comes from.
    public let kind: Kind
    /// A walk that ends early is a note, not a failed pass (`allow_incomplete: true`).
    public var allowsIncomplete = false
    /// A page with fewer records than the page size is the last one (`offset`, `page` with a size).
    public var stopOnShortPage = false
    /// The most pages one pass fetches.
    public var maxPages = 10_000
    /// Pages fetched at once when the first page tells how many there are (``remaining(after:facts:)``).
    public var parallel = 1
    /// How an `offset` walk steps from one page to the next.
    public var offsetStep = OffsetStep.records

    /// How an `offset` walk steps (`advance:` in a json feed's pagination).
    public enum OffsetStep: String, Sendable, CaseIterable {
        /// By the records the page held: an API that sends fewer records than `limit` asks for
        /// (a cap of its own) loses none.
        case records
        /// By `limit`, for an API whose offset counts something other than the records it
        /// sends (records it leaves out of a page after paging).
        case limit
    }

    /// A paginator of `kind` with the default settings: one page at a time (``parallel``), at most
    /// 10,000 pages (``maxPages``, which the adapter counts), no incomplete walk (``allowsIncomplete``).
    public init(kind: Kind) { self.kind = kind }

    /// The first page.
    public var first: PageRequest {
        switch kind {
        case .none, .nextURL, .linkHeader: PageRequest()
        case .cursor(_, let size, let sizeParam):
            PageRequest(query: size.map { [.init(name: sizeParam, value: String($0))] } ?? [])
        case .offset(let limit, let limitParam, let offsetParam, let start):
            offsetRequest(start, limit: limit, limitParam: limitParam, offsetParam: offsetParam)
        case .page(let param, let start, let size, let sizeParam):
            pageRequest(number: start, param: param, size: size, sizeParam: sizeParam)
        }
    }

    private func offsetRequest(_ offset: Int, limit: Int, limitParam: String, offsetParam: String) -> PageRequest {
        PageRequest(
            query: [.init(name: offsetParam, value: String(offset)), .init(name: limitParam, value: String(limit))],
            position: offset)
    }

    private func pageRequest(number: Int, param: String, size: Int?, sizeParam: String) -> PageRequest {
        var query = [PageRequest.QueryItem(name: param, value: String(number))]
        if let size { query.append(.init(name: sizeParam, value: String(size))) }
        return PageRequest(query: query, position: number)
    }

    /// The page after `page`, or `nil` when `page` was the last one or the walk cannot go on
    /// (``step(after:facts:url:)`` says which).
    ///
    /// - Parameters:
    ///   - page: the request that was just fetched.
    ///   - facts: what the adapter read off that page's response (records, totals, cursor).
    ///   - url: the URL `page` was fetched from (for relative next links).
    public func next(after page: PageRequest, facts: PageFacts, url: String) -> PageRequest? {
        if case .next(let request) = step(after: page, facts: facts, url: url) { return request }
        return nil
    }

    /// What follows `page`: the next page, the walk's end and why, or why the walk cannot go
    /// on though the page does not say it was the last.
    ///
    /// `has_more` (``PageFacts/hasMore``), when a page gives it, decides: false ends the walk,
    /// true goes on over an empty or short page. Without it, an empty page ends an `offset` or
    /// `page` walk, a short page does with ``stopOnShortPage``; a `cursor` walk ends where a page
    /// gives no cursor, and an empty page that still gives one is stuck (an API that echoes its
    /// position at the end cannot be told from one with more to come); `next_url` and
    /// `link_header` follow a next link even from an empty page.
    ///
    /// - Parameters:
    ///   - page: the request that was just fetched.
    ///   - facts: what the adapter read off that page's response (records, totals, cursor).
    ///   - url: the URL `page` was fetched from (for relative next links).
    public func step(after page: PageRequest, facts: PageFacts, url: String) -> PageStep {
        if facts.hasMore == false { return .end(.hasMoreFalse) }
        let saysMore = facts.hasMore == true
        let received = facts.recordCount
        switch kind {
        case .none:
            return .end(.onePage)
        case .offset(let limit, let limitParam, let offsetParam, _):
            if !saysMore, received == 0 { return .end(.emptyPage) }
            if !saysMore, stopOnShortPage, received < limit { return .end(.shortPage) }
            let offset = page.position + (offsetStep == .limit ? limit : received)
            if let total = facts.total, offset >= total { return .end(.totalReached) }
            if offset == page.position {
                return .stuck("it is empty but has_more says more follow, and the offset cannot advance by 0 records")
            }
            return .next(offsetRequest(offset, limit: limit, limitParam: limitParam, offsetParam: offsetParam))
        case .page(let param, let start, let size, let sizeParam):
            let lastPage = lastPage(facts: facts, start: start, size: size)
            if let lastPage, page.position >= lastPage { return .end(.totalReached) }
            if !saysMore, received == 0 || (stopOnShortPage && received < (size ?? 0)) {
                if let lastPage, facts.totalPages != nil {
                    return .stuck(
                        "it holds \(received) record(s), yet the total pages say page \(lastPage) is the last")
                }
                return .end(received == 0 ? .emptyPage : .shortPage)
            }
            return .next(pageRequest(number: page.position + 1, param: param, size: size, sizeParam: sizeParam))
        case .cursor(let param, let size, let sizeParam):
            guard let cursor = facts.continuation else {
                return saysMore ? .stuck("has_more says more follow, but it gives no next cursor") : .end(.noNextPage)
            }
            if received == 0, !saysMore {
                return .stuck(
                    "it is empty but gives a next cursor, so more may follow (has_more_path tells; allow_incomplete ends such a walk there)"
                )
            }
            var query = [PageRequest.QueryItem(name: param, value: cursor)]
            if let size { query.append(.init(name: sizeParam, value: String(size))) }
            return .next(PageRequest(query: query, cursor: cursor))
        case .nextURL, .linkHeader:
            guard let link = facts.continuation else {
                return saysMore ? .stuck("has_more says more follow, but it gives no next link") : .end(.noNextPage)
            }
            return .next(PageRequest(link: Self.resolve(link, against: url)))
        }
    }

    /// The page size a walk steps by, when a page with fewer records followed by one with
    /// records means records were skipped: `offset` with ``OffsetStep/limit``.
    public var skipsAfterShortPages: Int? {
        if case .offset(let limit, _, _, _) = kind, offsetStep == .limit { return limit }
        return nil
    }

    /// Every page after the first, when the first page's facts tell how many there are; `nil`
    /// when they do not (the pages must then be walked one by one).
    public func remaining(after first: PageRequest, facts: PageFacts) -> [PageRequest]? {
        switch kind {
        case .offset(let limit, let limitParam, let offsetParam, _):
            guard let total = facts.total else { return nil }
            guard facts.recordCount > 0 else { return [] }
            // By records, an API that capped the first page is taken to cap every page alike;
            // the total check catches one that does not.
            let step = offsetStep == .limit ? limit : min(limit, facts.recordCount)
            return stride(from: first.position + step, to: total, by: step).map { offset in
                offsetRequest(offset, limit: limit, limitParam: limitParam, offsetParam: offsetParam)
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
    public func values(for page: PageRequest, number: Int) -> [String: String] {
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
        case .cursor(_, let size, _):
            if let size { values["limit"] = String(size) }
            if let cursor = page.cursor { values["page_cursor"] = cursor }
        }
        return values
    }

    /// Why the value `name` of ``values(for:number:)`` is missing with this pagination, or `nil`
    /// when it has one.
    public func unavailableValue(_ name: String) -> String? {
        switch (name, kind) {
        case ("page", _): nil
        case ("offset", .offset), ("limit", .offset): nil
        case ("offset", .page(_, _, _?, _)), ("limit", .page(_, _, _?, _)): nil
        case ("offset", .page), ("limit", .page): "page pagination gives {{\(name)}} only with limit (the page size)"
        case ("limit", .cursor(_, _?, _)): nil
        case ("limit", .cursor): "cursor pagination gives {{limit}} only with limit (the page size)"
        case ("page_cursor", .cursor): nil
        default: "{{\(name)}} has no value with \(kindName) pagination"
        }
    }

    /// The kind's name in feeds.yaml (`type:` of `pagination:`).
    public var kindName: String {
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
    public var hasCursor: Bool {
        if case .cursor = kind { return true }
        return false
    }

    /// The number of the last page, from the total pages or from the total and the page size.
    private func lastPage(facts: PageFacts, start: Int, size: Int?) -> Int? {
        if let totalPages = facts.totalPages { return start + totalPages - 1 }
        if let total = facts.total, let size, size > 0 { return start + (total + size - 1) / size - 1 }
        return nil
    }

    /// `link` made absolute against `base`: a URL relative to an http(s) URL, or a path relative
    /// to a file's folder.
    public static func resolve(_ link: String, against base: String) -> String {
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
}
