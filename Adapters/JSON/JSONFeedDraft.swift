import FeedKit

/// A first `json` feed for `feedwork init --from SAMPLE`, guessed from one sample response:
/// where the records are (the largest list of objects), which field is the key, each field's
/// type, and a `next` link to follow. The result is YAML for a user to read and adjust; every
/// guess is marked with a comment saying what it was based on.
public struct JSONFeedDraft: Sendable {
    /// A field of the records, as it will be declared.
    struct Field: Equatable {
        /// The column name: the JSON name when it is a valid column name, else a snake_case one.
        var name: String
        /// The JSON member name.
        var member: String
        /// The json adapter's field declaration: `int`, `{ type: list, of: string }`, ...
        var declaration: String
        /// What a reader should know about the guess, as a comment.
        var note: String?
    }

    /// The path of the records list, `$` for a top-level list.
    var recordsPath: String
    var fields: [Field]
    var key: String?
    var nextPath: String?
    var recordCount: Int

    /// How many fields the feed declares.
    public var fieldCount: Int { fields.count }

    /// The guessed key, or what to do without one.
    public var keyDescription: String { key ?? "to choose: no field is unique in the sample" }

    /// An entity name from the records' path (`$.data.items` gives `item`), else `fallback`'s.
    public func entityName(fallback: String) -> String {
        let last = recordsPath.split(whereSeparator: { ".$[]'".contains($0) }).last.map(String.init) ?? fallback
        var name = Self.columnName(last)
        if name.count > 3, name.hasSuffix("s"), !name.hasSuffix("ss") { name.removeLast() }
        return name
    }

    /// Guesses a feed from `sample`; `nil` when the sample holds no list of objects.
    public init?(sample: JSONValue) {
        guard let (path, records) = Self.largestObjectList(in: sample, path: "$") else { return nil }
        recordsPath = path
        recordCount = records.count
        fields = Self.fields(of: records)
        key = Self.key(fields: fields, records: records)
        nextPath = Self.nextLink(in: sample, path: "$")
    }

    /// The feed as YAML lines for the `feeds:` list of feeds.yaml.
    public func yaml(feed: String, url: String, entity: String) -> String {
        var lines = [
            "  - name: \(feed)",
            "    adapter: json",
            "    url: \(Self.quotedIfNeeded(url))",
        ]
        if let nextPath {
            lines.append("    # Guessed: the sample has a link to the next page at \(nextPath).")
            lines.append("    pagination: { type: next_url, next_path: \(nextPath), max_pages: 100 }")
        } else {
            lines.append("    # One request; for pages see docs/json/pagination.md (offset, page, cursor, next_url).")
        }
        lines.append(
            "    records: \(recordsPath)   # guessed: the largest list of objects (\(recordCount) in the sample)")
        lines.append("    entity: \(entity)")
        if let key {
            lines.append("    key: \(key)   # guessed: unique in every record of the sample")
        } else {
            lines.append("    # No field was unique across the sample: choose the field(s) that identify a record.")
            lines.append("    key: \(fields.first?.name ?? "id")")
        }
        lines.append("    write: merge")
        lines.append("    extra: keep   # members not declared below are kept in the _extra column")
        lines.append("    fields:")
        for field in fields {
            let declaration =
                field.name == field.member
                ? field.declaration
                : Self.withPath(field.declaration, path: Self.child("$", field.member))
            lines.append("      \(field.name): \(declaration)" + (field.note.map { "   # \($0)" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Guesses

    /// The longest list whose items are all objects, searched breadth first.
    static func largestObjectList(in value: JSONValue, path: String) -> (String, [JSONObject])? {
        var best: (String, [JSONObject])?
        var queue: [(JSONValue, String)] = [(value, path)]
        while !queue.isEmpty {
            let (value, path) = queue.removeFirst()
            switch value {
            case .array(let items):
                let objects = items.compactMap(\.objectValue)
                if !objects.isEmpty, objects.count == items.count, objects.count > (best?.1.count ?? 0) {
                    best = (path, objects)
                }
            case .object(let object):
                for (key, member) in object.members { queue.append((member, child(path, key))) }
            default: break
            }
        }
        return best
    }

    static func fields(of records: [JSONObject]) -> [Field] {
        var order: [String] = []
        var values: [String: [JSONValue]] = [:]
        for record in records {
            for (member, value) in record.members {
                if values[member] == nil { order.append(member) }
                values[member, default: []].append(value)
            }
        }
        var taken = Set<String>()
        return order.map { member in
            var name = columnName(member)
            while taken.contains(name) { name += "_" + String(taken.count) }
            taken.insert(name)
            let present = (values[member] ?? []).filter { !$0.isNull }
            return present.isEmpty
                ? Field(name: name, member: member, declaration: "string", note: "only null in the sample")
                : Field(name: name, member: member, declaration: declaration(for: present))
        }
    }

    /// The json adapter's type for these sample values (none of them null).
    static func declaration(for present: [JSONValue]) -> String {
        guard let first = present.first else { return "string" }
        func all(_ test: (JSONValue) -> Bool) -> Bool { present.allSatisfy(test) }
        switch first {
        case .bool where all { $0.boolValue != nil }:
            return "bool"
        case .number where all { $0.int64Value != nil }:
            return "int"
        case .number where all { $0.numberText != nil }:
            return "decimal"
        case .string where all { $0.stringValue.map(isDecimalText) ?? false }:
            return "decimal"
        case .string where all { $0.stringValue.map(isTimestamp) ?? false }:
            return "{ type: timestamp, format: iso8601 }"
        case .string where all { $0.stringValue.map { CalendarDate.normalized($0) != nil } ?? false }:
            return "date"
        case .string where all { $0.stringValue != nil }:
            return "string"
        case .array where all { $0.arrayValue != nil }:
            let items = present.flatMap { $0.arrayValue ?? [] }.filter { !$0.isNull }
            if items.allSatisfy({ $0.int64Value != nil }), !items.isEmpty { return "{ type: list, of: int }" }
            if items.allSatisfy({ $0.stringValue != nil }) { return "{ type: list, of: string }" }
            return "json"
        default:
            return "json"
        }
    }

    /// `id` when it is unique, else the first field whose values are present, scalar and unique.
    static func key(fields: [Field], records: [JSONObject]) -> String? {
        func isUnique(_ field: Field) -> Bool {
            var seen = Set<String>()
            for record in records {
                guard let value = record[field.member], let text = value.stringValue ?? value.numberText,
                    seen.insert(text).inserted
                else { return false }
            }
            return true
        }
        let scalar = fields.filter { ["int", "string"].contains($0.declaration) }
        let preferred = scalar.filter { ["id", "uuid", "key", "code"].contains($0.name.lowercased()) }
        return (preferred + scalar).first(where: isUnique)?.name
    }

    /// The path of a member that looks like a link to the next page (`next`, `next_url`,
    /// `nextPage`, `next_link`, ...) holding a non-empty text: a URL, a path or a file name.
    static func nextLink(in value: JSONValue, path: String) -> String? {
        guard case .object(let object) = value else { return nil }
        for (key, member) in object.members {
            let squeezed = key.lowercased().replacingOccurrences(of: "_", with: "")
            if Self.nextNames.contains(squeezed), let text = member.stringValue, !text.isEmpty {
                return child(path, key)
            }
            if case .object = member, let found = nextLink(in: member, path: child(path, key)) { return found }
        }
        return nil
    }

    static let nextNames: Set<String> = ["next", "nexturl", "nextpage", "nextpageurl", "nextlink", "nexthref"]

    // MARK: - Names and text

    static func child(_ path: String, _ key: String) -> String {
        isPlainName(key) ? "\(path).\(key)" : "\(path)['\(key.replacingOccurrences(of: "'", with: "\\'"))']"
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !name.contains("__")
    }

    /// `name` as a column name: letters, digits and single underscores, starting with a letter.
    static func columnName(_ name: String) -> String {
        if isPlainName(name) { return name }
        var result = ""
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber {
                if character.isUppercase, let last = result.last, last.isLowercase { result += "_" }
                result.append(character)
            } else if !result.hasSuffix("_") {
                result += "_"
            }
        }
        result = result.trimmingCharacters(in: ["_"]).lowercased()
        if result.first?.isLetter != true { result = "field_" + result }
        return result.replacingOccurrences(of: "__", with: "_")
    }

    /// Text such as `"2.49"` or `"-0.5"`: APIs often send money as decimal text.
    static func isDecimalText(_ text: String) -> Bool {
        text.contains(".") && ExactDecimal(text) != nil
    }

    static func isTimestamp(_ text: String) -> Bool {
        text.count >= 20 && text.dropFirst(10).first == "T" && ISO8601.parse(text) != nil
    }

    /// `declaration` with an explicit `path:`, for a member whose name is not a column name.
    static func withPath(_ declaration: String, path: String) -> String {
        let quoted =
            "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        if declaration.hasPrefix("{ ") { return "{ path: \(quoted), " + declaration.dropFirst(2) }
        return "{ path: \(quoted), type: \(declaration) }"
    }

    static func quotedIfNeeded(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "-._/:?=&%+~".contains($0) } && !text.isEmpty
        return plain
            ? text
            : "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
    }
}
