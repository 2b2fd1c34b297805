import FeedKit

/// One `--where` condition: `FIELD=VALUE`, `FIELD!=VALUE`, `FIELD<VALUE`, `FIELD<=VALUE`,
/// `FIELD>VALUE`, `FIELD>=VALUE` or `FIELD~VALUE` (contains, ignoring ASCII case).
///
/// The field is the first run of characters before an operator; everything after the operator
/// is the value, verbatim (it may hold quotes, `=` and spaces). Values are always bound as SQL
/// parameters, never spliced into the query.
public struct ExportFilter: Sendable, Hashable {
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains = "~"
    }

    public var field: String
    public var op: Operator
    public var value: String

    public init(field: String, op: Operator, value: String) {
        self.field = field
        self.op = op
        self.value = value
    }

    /// Parses `FIELD<op>VALUE`.
    ///
    /// - Throws: a usage ``ExportError`` when there is no operator or no field name.
    public init(parsing text: String) throws(ExportError) {
        let operatorStart: Set<Character> = ["=", "!", "<", ">", "~"]
        guard let index = text.firstIndex(where: { operatorStart.contains($0) }) else {
            throw .usage("--where '\(text)': expected FIELD=VALUE (or !=, <, <=, >, >=, ~ for contains)")
        }
        let field = String(text[..<index])
        var rest = text[index...]
        let first = rest.removeFirst()
        let op: Operator
        switch first {
        case "!":
            guard rest.first == "=" else {
                throw .usage("--where '\(text)': '!' must be followed by '=' (FIELD!=VALUE)")
            }
            rest.removeFirst()
            op = .notEqual
        case "<", ">":
            if rest.first == "=" {
                rest.removeFirst()
                op = first == "<" ? .lessOrEqual : .greaterOrEqual
            } else {
                op = first == "<" ? .less : .greater
            }
        case "~": op = .contains
        default: op = .equal
        }
        guard !field.isEmpty else { throw .usage("--where '\(text)': no field name before '\(op.rawValue)'") }
        self.init(field: field, op: op, value: String(rest))
    }
}
