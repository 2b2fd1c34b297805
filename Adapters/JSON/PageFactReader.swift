import FeedKit

/// Where a json feed's pages say what follows them: the JSON paths of `pagination:` (total,
/// total pages, has more, the cursor or next link) and the `Link` header. What the facts mean
/// for the next page is FeedKit's ``Paginator``.
struct PageFactReader: Sendable {
    /// Where the next cursor or link is read from.
    enum Continuation: Sendable {
        case none
        /// The next cursor, a string or a number (`cursor_path`).
        case cursor(JSONPath)
        /// The next page's URL (`next_path`).
        case nextURL(JSONPath)
        /// The `Link` header's `rel="next"`.
        case linkHeader
        /// The next cursor in a response header (`cursor_header`), by lowercased name.
        case cursorHeader(String)
        /// The next page's URL in a response header (`next_header`), by lowercased name.
        case nextHeader(String)
    }

    var continuation = Continuation.none
    var totalPath: JSONPath?
    var totalPagesPath: JSONPath?
    var hasMorePath: JSONPath?

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
        switch continuation {
        case .none: break
        case .cursor(let path):
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
        case .cursorHeader(let name), .nextHeader(let name):
            let value = headers[name]?.trimmingSpaces ?? ""
            facts.continuation = value.isEmpty ? nil : value
        }
        return facts
    }

    /// Whether a path of these facts reads a value inside the records at `names` (member names
    /// from the root), which a page whose records are mapped as they are parsed no longer holds.
    func readsInside(_ names: [String]) -> Bool {
        var paths = [totalPath, totalPagesPath, hasMorePath].compactMap { $0 }
        switch continuation {
        case .cursor(let path), .nextURL(let path): paths.append(path)
        case .none, .linkHeader, .cursorHeader, .nextHeader: break
        }
        let prefix = names.map(JSONPath.Step.key)
        return paths.contains { $0.steps.count > prefix.count && Array($0.steps.prefix(prefix.count)) == prefix }
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
