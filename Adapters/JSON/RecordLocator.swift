import FeedKit

/// How a response becomes a document, and where the records are in it.
///
/// - JSON: `records` is a path (`$.data.items`), and the body is parsed with FeedKit's JSON
///   parser, which leaves out the records of a page that is only counted.
/// - XML: `records` names elements from the root down, `Envelope/Cube/Cube/Cube`; each step
///   goes into every child element of that name, so the records are all the elements at the
///   end of the path, in document order. A field may read an ancestor of its record with
///   `../` (`../@time`, the attribute of the record's parent; `../../x` one level up).
/// - CSV: every row is a record; `records` is not used.
enum RecordLocator: Sendable, Hashable {
    case json(JSONPath)
    case xml(XMLRecordPath)
    case csv(CSVDialect)

    /// The locator for `format` and the feed's `records`.
    ///
    /// - Parameter ancestorFields: the field paths that start with `../` (XML only).
    /// - Throws: ``OptionError`` at `records` when it does not fit the format.
    init(_ format: ResponseFormat, records: String?, ancestorFields: [String]) throws(OptionError) {
        switch format {
        case .json:
            self = .json(try FieldCompiler.parsePath(records ?? "$", at: ["records"]))
        case .xml:
            guard let records else {
                throw OptionError(
                    "an XML feed needs records: the element names from the root to the records, e.g. Envelope/Cube/Cube/Cube",
                    at: ["format"])
            }
            self = .xml(try XMLRecordPath(records, ancestorFields: ancestorFields))
        case .csv(let dialect):
            guard records == nil || records == "$" else {
                throw OptionError("a CSV feed's records are its rows: leave records out", at: ["records"])
            }
            self = .csv(dialect)
        }
    }

    /// The path for messages and rejects: `$.items`, `Envelope/Cube/Cube/Cube`, `$` for CSV rows.
    var description: String {
        switch self {
        case .json(let path): path.description
        case .xml(let path): path.description
        case .csv: "$"
        }
    }

    /// The body as a document.
    ///
    /// - Parameter countingOnly: the records will only be counted, so a JSON parse may leave
    ///   them out.
    func document(of response: FetchResponse, feed: String, countingOnly: Bool) throws(PayloadError) -> JSONValue {
        switch self {
        case .json(let path):
            guard countingOnly, let names = path.memberNames else { return try response.json(feed: feed) }
            do {
                return try JSONParser.parse(response.body, elidingElementsAt: names)
            } catch {
                throw PayloadError(feed: feed, url: response.url, path: "$", message: error.description)
            }
        case .xml: return try response.xml(feed: feed)
        case .csv(let dialect): return try response.csv(feed: feed, dialect: dialect)
        }
    }

    /// The records of `document`: a list, one object, or `null`; `nil` when the path finds
    /// nothing.
    func records(in document: JSONValue) -> JSONValue? {
        switch self {
        case .json(let path): path.lookup(document)
        case .xml(let path): path.records(in: document)
        case .csv: document
        }
    }
}

/// Where the records of an XML document are: element names from the root down, and the
/// ancestors' values the fields read (`../@time`).
struct XMLRecordPath: Sendable, Hashable, CustomStringConvertible {
    /// A field's value in an ancestor of the record, copied into the record under `member`
    /// (the field's path as written) so that the field reads it like any other member.
    struct AncestorField: Sendable, Hashable {
        var member: String
        /// 1 for the record's parent, 2 for its grandparent...
        var levels: Int
        var path: JSONPath
    }

    let names: [String]
    let ancestorFields: [AncestorField]

    var description: String { names.joined(separator: "/") }

    /// - Throws: ``OptionError`` for an empty step, or a field path past the root.
    init(_ text: String, ancestorFields: [String]) throws(OptionError) {
        let trimmed = text.hasPrefix("/") ? String(text.dropFirst()) : text
        names = trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !trimmed.isEmpty, names.allSatisfy({ !$0.isEmpty && !$0.contains(where: { "$[]. ".contains($0) }) })
        else {
            throw OptionError(
                "an XML feed's records are element names from the root down, separated by '/', e.g. Envelope/Cube/Cube/Cube; not '\(text)'",
                at: ["records"])
        }
        var fields: [AncestorField] = []
        for member in ancestorFields {
            var rest = Substring(member)
            var levels = 0
            while rest.hasPrefix("../") {
                levels += 1
                rest = rest.dropFirst(3)
            }
            guard levels < names.count else {
                throw OptionError(
                    "'\(member)' goes above the root element: the records are \(names.count) level(s) deep",
                    at: ["fields"])
            }
            let path = try FieldCompiler.parsePath(String(rest), at: ["fields"])
            fields.append(AncestorField(member: member, levels: levels, path: path))
        }
        self.ancestorFields = fields
    }

    /// The elements at the end of the path, each an object with the ancestors' values the
    /// fields read; `nil` when the root element is not the path's first name.
    func records(in document: JSONValue) -> JSONValue? {
        guard let first = names.first, let root = document[first] else { return nil }
        var nodes = Self.elements(root).map { (value: $0, ancestors: [JSONValue]()) }
        for name in names.dropFirst() {
            var next: [(value: JSONValue, ancestors: [JSONValue])] = []
            for node in nodes {
                guard let member = node.value[name] else { continue }
                let ancestors = ancestorFields.isEmpty ? [] : node.ancestors + [node.value]
                for element in Self.elements(member) { next.append((element, ancestors)) }
            }
            nodes = next
        }
        return .array(nodes.map(record))
    }

    /// The record for an element: its object (a text-only element's text as `#text`), with the
    /// ancestors' values added.
    private func record(_ node: (value: JSONValue, ancestors: [JSONValue])) -> JSONValue {
        var object: JSONObject
        switch node.value {
        case .object(let members): object = members
        case .null: object = JSONObject([])
        default: object = JSONObject([("#text", node.value)])
        }
        for field in ancestorFields {
            let ancestor = node.ancestors[node.ancestors.count - field.levels]
            object.members.append((field.member, field.path.lookup(ancestor) ?? .null))
        }
        return .object(object)
    }

    /// A repeated element's occurrences, or the one element.
    private static func elements(_ value: JSONValue) -> [JSONValue] {
        if case .array(let items) = value { return items }
        return [value]
    }
}
