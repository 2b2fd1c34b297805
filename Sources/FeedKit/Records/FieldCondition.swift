import Foundation

/// A condition on one field of a record: `FIELD=VALUE`, `FIELD!=VALUE`, `FIELD<VALUE`,
/// `FIELD<=VALUE`, `FIELD>VALUE`, `FIELD>=VALUE` or `FIELD~VALUE` (contains, ignoring ASCII
/// case). The grammar of `feedwork export --where` and of the json adapter's `filter:`.
///
/// The field is the first run of characters before an operator; everything after the operator
/// is the value, verbatim (it may hold quotes, `=` and spaces). The value is compared as a
/// value of the field's column type (``operand(for:)``): integers, reals and decimals as
/// numbers (so `1.50` equals `1.5` and `9 < 10`), booleans as `true`/`false`, everything else
/// (text, ISO 8601 timestamps, `YYYY-MM-DD` dates, JSON) as text; a date column takes only a
/// date of the calendar, except after `~`. `!=` holds for a null value; the other
/// operators never do.
public struct FieldCondition: Sendable, Hashable, CustomStringConvertible {
    /// The comparison a condition makes, spelled as in `--where`.
    public enum Operator: String, Sendable, CaseIterable {
        /// `=`: the same value.
        case equal = "="
        /// `!=`: another value, or null.
        case notEqual = "!="
        /// `<`: smaller (numbers by value).
        case less = "<"
        /// `<=`: smaller or the same.
        case lessOrEqual = "<="
        /// `>`: larger.
        case greater = ">"
        /// `>=`: larger or the same.
        case greaterOrEqual = ">="
        /// `~`: the text holds the value, ignoring ASCII case.
        case contains = "~"
    }

    /// The name of the field compared.
    public var field: String
    /// How the field is compared with ``value``.
    public var op: Operator
    /// The value as written, converted to the column's type by ``operand(for:)``.
    public var value: String

    /// The condition `field op value`, without parsing.
    public init(field: String, op: Operator, value: String) {
        self.field = field
        self.op = op
        self.value = value
    }

    /// Parses `FIELD<op>VALUE`.
    ///
    /// - Throws: ``FieldCondition/ParseError`` when there is no operator or no field name.
    public init(parsing text: String) throws(FieldCondition.ParseError) {
        let operatorStart: Set<Character> = ["=", "!", "<", ">", "~"]
        guard let index = text.firstIndex(where: { operatorStart.contains($0) }) else {
            throw FieldCondition.ParseError("'\(text)': expected FIELD=VALUE (or !=, <, <=, >, >=, ~ for contains)")
        }
        let field = String(text[..<index])
        var rest = text[index...]
        let first = rest.removeFirst()
        let op: Operator
        switch first {
        case "!":
            guard rest.first == "=" else {
                throw FieldCondition.ParseError("'\(text)': '!' must be followed by '=' (FIELD!=VALUE)")
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
        guard !field.isEmpty else {
            throw FieldCondition.ParseError("'\(text)': no field name before '\(op.rawValue)'")
        }
        self.init(field: field, op: op, value: String(rest))
    }

    /// `FIELD<op>VALUE`, as written.
    public var description: String { field + op.rawValue + value }

    /// The value as the column type `type` compares it: `.integer` for integer and boolean
    /// columns (`true`, `1`, `yes` are 1), `.real` for real and decimal columns, `.text`
    /// otherwise; a failure when it does not read as that type, saying what the column holds
    /// (`'price' is a decimal column; 'abc' is not`).
    public func operand(for type: ColumnType) -> Result<FieldValue, FieldCondition.ParseError> {
        func mismatch(_ expected: String) -> Result<FieldValue, FieldCondition.ParseError> {
            .failure(FieldCondition.ParseError("'\(field)' is \(expected); '\(value)' is not"))
        }
        switch type {
        case .integer:
            guard let number = Int64(value) else { return mismatch("an integer column") }
            return .success(.integer(number))
        case .real, .decimal:
            guard let number = Double(value), number.isFinite else {
                return mismatch(type == .real ? "a number column" : "a decimal column")
            }
            return .success(.real(number))
        case .boolean:
            switch value.lowercased() {
            case "true", "1", "yes": return .success(.integer(1))
            case "false", "0", "no": return .success(.integer(0))
            default: return mismatch("a boolean column (true or false)")
            }
        case .date:
            // `~` searches the text; the other operators compare whole dates.
            guard op == .contains || CalendarDate.normalized(value) != nil else {
                return .failure(
                    FieldCondition.ParseError(
                        "'\(field)' is a date column (YYYY-MM-DD); \(CalendarDate.problem(value))"))
            }
            return .success(.text(value))
        case .text, .timestamp, .json:
            return .success(.text(value))
        }
    }

    /// Whether `field`'s value `actual` satisfies the condition, `operand` being
    /// ``operand(for:)`` of the field's type: the same answer `export --where` gives for the
    /// stored row.
    public func holds(for actual: FieldValue, operand: FieldValue) -> Bool {
        if actual.isNull { return op == .notEqual }
        if op == .contains {
            return Self.asciiLowercased(Self.text(of: actual)).contains(Self.asciiLowercased(value))
        }
        guard let order = Self.order(actual, operand) else { return op == .notEqual }
        switch op {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        case .contains: return false
        }
    }

    /// -1, 0 or 1 as `actual` sorts before, with or after `operand`: numbers by value, text by
    /// its UTF-8 bytes (as SQLite does); `nil` when a number column holds no number.
    static func order(_ actual: FieldValue, _ operand: FieldValue) -> Int? {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (actual, operand) {
        case (.integer(let a), .integer(let b)): return sign(a, b)
        case (.bool(let a), .integer(let b)): return sign(Int64(a ? 1 : 0), b)
        case (_, .real(let b)):
            switch actual {
            case .integer(let a): return sign(Double(a), b)
            case .real(let a): return sign(a, b)
            case .text(let a): return Double(a).map { sign($0, b) }
            default: return nil
            }
        case (_, .text(let b)):
            let a = text(of: actual)
            if a == b { return 0 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        default:
            return nil
        }
    }

    private static func text(of value: FieldValue) -> String {
        if case .bool(let flag) = value { return flag ? "1" : "0" }
        return value.description
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// A condition that cannot be read, or whose value does not fit its field.
extension FieldCondition {
    /// A condition that cannot be read, or whose value does not fit its field's type.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the condition or the field.
        public var message: String

        /// An error saying `message`.
        public init(_ message: String) { self.message = message }

        /// The message alone.
        public var description: String { message }
    }
}
