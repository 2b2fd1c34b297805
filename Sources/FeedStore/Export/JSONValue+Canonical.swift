import FeedKit

extension JSONValue {
    /// The value as exports write a `json` column, byte for byte the same from either store:
    /// object members in the order of their names' UTF-8 bytes, at every level (a name given
    /// twice keeps its last value), and numbers in the form ``ExactDecimal/normalized`` gives
    /// (`1e3` is `1000`; `1.50` keeps its zero).
    ///
    /// A store does not keep a document as it came: PostgreSQL's `jsonb` orders members by the
    /// length of their names and writes numbers as `numeric` does, where SQLite keeps the text.
    /// Writing both in one canonical form is what makes their exports identical.
    package var canonical: JSONValue {
        switch self {
        case .object(let object):
            var last: [String: Int] = [:]
            for (index, member) in object.members.enumerated() { last[member.key] = index }
            let kept = object.members.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
            let sorted = kept.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return .object(JSONObject(sorted.map { ($0.key, $0.value.canonical) }))
        case .array(let items):
            return .array(items.map(\.canonical))
        case .number(let text):
            return ExactDecimal(text).map { .number($0.normalized) } ?? self
        case .null, .bool, .string:
            return self
        }
    }
}
