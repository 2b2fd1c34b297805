import FeedKit
import Foundation

/// A JSON document written in YAML (a `POST` body), decoded from any YAML value.
///
/// Plain scalars are typed by how they read: `true`/`false` become booleans, `12` and `1.5`
/// numbers, `null` or nothing null, everything else a string. String values may hold date
/// templates, rendered when the request is made, and `{{cursor}}`, an incremental feed's cursor.
public indirect enum YAMLJSON: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(TemplatedString)
    case array([YAMLJSON])
    case object([(key: String, value: YAMLJSON)])

    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let mapping = try? decoder.container(keyedBy: AnyCodingKey.self) {
            self = .object(try mapping.allKeys.map { ($0.stringValue, try mapping.decode(YAMLJSON.self, forKey: $0)) })
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [YAMLJSON] = []
            while !list.isAtEnd { items.append(try list.decode(YAMLJSON.self)) }
            self = .array(items)
        } else {
            let text = try single.decode(String.self)
            if text == "true" || text == "false" {
                self = .bool(text == "true")
            } else if ExactDecimal(text) != nil, text.first != "+", text.first.map({ $0 == "-" || $0.isNumber }) == true
            {
                self = .number(text)
            } else {
                self = .string(try TemplatedString(from: decoder))
            }
        }
    }

    /// The document as JSON, with every date template evaluated at `now`, `{{cursor}}` replaced
    /// by `cursor` and the page's values (`{{page}}`, `{{offset}}`, `{{limit}}`,
    /// `{{page_cursor}}`) by `values`.
    ///
    /// A string made of one value alone takes its type: `"{{page}}"`, `"{{offset}}"` and
    /// `"{{limit}}"` are numbers, and a cursor the pass does not have (the first page's) is null.
    func render(now: Date, cursor: String? = nil, values: [String: String] = [:]) -> JSONValue {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return .number(text)
        case .string(let template):
            if let name = template.onlyValue {
                guard let value = name == "cursor" ? cursor : values[name] else { return .null }
                return ["page", "offset", "limit"].contains(name) ? .number(value) : .string(value)
            }
            return .string(template.render(now: now, cursor: cursor, values: values))
        case .array(let items): return .array(items.map { $0.render(now: now, cursor: cursor, values: values) })
        case .object(let members):
            return .object(
                JSONObject(members.map { ($0.key, $0.value.render(now: now, cursor: cursor, values: values)) }))
        }
    }

    /// The page values (``TemplatedString/variableNames``) the document's strings hold.
    var variables: Set<String> {
        switch self {
        case .null, .bool, .number: []
        case .string(let template): template.variables
        case .array(let items): items.reduce(into: []) { $0.formUnion($1.variables) }
        case .object(let members): members.reduce(into: []) { $0.formUnion($1.value.variables) }
        }
    }

    /// Whether a string of the document holds `{{cursor}}`.
    var holdsCursor: Bool {
        switch self {
        case .null, .bool, .number: false
        case .string(let template): template.holdsCursor
        case .array(let items): items.contains(where: \.holdsCursor)
        case .object(let members): members.contains(where: { $0.value.holdsCursor })
        }
    }
}
