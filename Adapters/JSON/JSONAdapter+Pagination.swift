import FeedKit

extension JSONAdapter {
    /// The feed's pagination from `pagination:`: FeedKit's ``Paginator`` for the pages it asks
    /// for, and where its pages' facts are read.
    ///
    /// - Throws: ``OptionError`` at the first wrong pagination option.
    static func paging(_ spec: PaginationSpec) throws(OptionError) -> (paginator: Paginator, facts: PageFactReader) {
        let at = ["pagination"]
        func path(_ text: String?, _ key: String) throws(OptionError) -> JSONPath? {
            guard let text else { return nil }
            return try FieldCompiler.parsePath(text, at: at + [key])
        }
        func param(_ name: String?, _ key: String, default fallback: String) throws(OptionError) -> String {
            let value = name ?? fallback
            guard !value.isEmpty else { throw OptionError("\(key) must not be empty", at: at + [key]) }
            return value
        }
        let kind: Paginator.Kind
        var facts = PageFactReader()
        switch spec.kind {
        case .none: kind = .none
        case .offset:
            let limit = spec.limit ?? 0
            guard limit > 0 else { throw OptionError("limit must be more than 0", at: at + ["limit"]) }
            kind = .offset(
                limit: limit, limitParam: try param(spec.limitParam, "limit_param", default: "limit"),
                offsetParam: try param(spec.offsetParam, "offset_param", default: "offset"), start: spec.start ?? 0)
        case .page:
            if let limit = spec.limit, limit <= 0 { throw OptionError("limit must be more than 0", at: at + ["limit"]) }
            if spec.totalPath != nil, spec.limit == nil {
                throw OptionError("total_path needs limit (the page size) to count pages", at: at + ["total_path"])
            }
            if spec.stopOnShortPage == true, spec.limit == nil {
                throw OptionError("stop_on_short_page needs limit (the page size)", at: at + ["stop_on_short_page"])
            }
            kind = .page(
                param: try param(spec.pageParam, "page_param", default: "page"), start: spec.start ?? 1,
                size: spec.limit,
                sizeParam: try param(spec.limitParam, "limit_param", default: "limit"))
        case .cursor:
            if let limit = spec.limit, limit <= 0 { throw OptionError("limit must be more than 0", at: at + ["limit"]) }
            facts.continuation = try continuation(
                path: spec.cursorPath, pathKey: "cursor_path", header: spec.cursorHeader, headerKey: "cursor_header",
                kind: "cursor", at: at, read: PageFactReader.Continuation.cursor,
                fromHeader: PageFactReader.Continuation.cursorHeader)
            kind = .cursor(
                param: try param(spec.cursorParam, "cursor_param", default: "cursor"),
                size: spec.limit, sizeParam: try param(spec.limitParam, "limit_param", default: "limit"))
        case .nextURL:
            facts.continuation = try continuation(
                path: spec.nextPath, pathKey: "next_path", header: spec.nextHeader, headerKey: "next_header",
                kind: "next_url", at: at, read: PageFactReader.Continuation.nextURL,
                fromHeader: PageFactReader.Continuation.nextHeader)
            kind = .nextURL
        case .linkHeader:
            facts.continuation = .linkHeader
            kind = .linkHeader
        }
        var paginator = Paginator(kind: kind)
        facts.totalPath = try path(spec.totalPath, "total_path")
        facts.totalPagesPath = try path(spec.totalPagesPath, "total_pages_path")
        facts.hasMorePath = try path(spec.hasMorePath, "has_more_path")
        paginator.allowsIncomplete = spec.allowIncomplete ?? false
        paginator.stopOnShortPage = spec.stopOnShortPage ?? false
        if let advance = spec.advance {
            guard let step = Paginator.OffsetStep(rawValue: advance) else {
                throw OptionError("advance must be records or limit, not '\(advance)'", at: at + ["advance"])
            }
            paginator.offsetStep = step
        }
        if let maxPages = spec.maxPages {
            guard maxPages > 0 else { throw OptionError("max_pages must be at least 1", at: at + ["max_pages"]) }
            paginator.maxPages = maxPages
        }
        if let parallel = spec.parallel {
            guard (1...16).contains(parallel) else {
                throw OptionError("parallel must be between 1 and 16", at: at + ["parallel"])
            }
            if parallel > 1, facts.totalPath == nil, facts.totalPagesPath == nil {
                throw OptionError(
                    "parallel needs the total up front: add total_path\(spec.kind == .page ? " or total_pages_path" : "")",
                    at: at + ["parallel"])
            }
            paginator.parallel = parallel
        }
        return (paginator, facts)
    }
}
