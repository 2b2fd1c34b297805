import FeedKit

/// The column type of an undeclared member (`extra: columns`), told from its values: the
/// narrowest of `int`, `decimal`, `bool`, `date`, `timestamp`, `string` and `json` that holds
/// every value seen, so that no digit is ever lost.
///
/// Values that disagree widen the type (``joined(with:)``): an integer and a decimal make a
/// decimal; any other two scalars make a string (a number keeps the digits it is written
/// with); an object or a list with anything makes json.
enum InferredType: String, Sendable, Hashable, CaseIterable {
    case int, decimal, bool, date, timestamp, string, json

    /// The type of one value; `nil` for null, which says nothing.
    init?(of value: JSONValue) {
        switch value {
        case .null: return nil
        case .bool: self = .bool
        case .number(let text): self = Int64(text) != nil ? .int : .decimal
        case .string(let text):
            if CalendarDate.normalized(text) != nil {
                self = .date
            } else if text.utf8.count >= 20, text.dropFirst(10).first == "T", ISO8601.parse(text) != nil {
                self = .timestamp
            } else {
                self = .string
            }
        case .array, .object: self = .json
        }
    }

    /// The narrowest type that holds the values of both.
    func joined(with other: InferredType) -> InferredType {
        if self == other { return self }
        if self == .json || other == .json { return .json }
        if Set([self, other]) == [.int, .decimal] { return .decimal }
        return .string
    }

    /// The column type.
    var columnType: ColumnType {
        switch self {
        case .int: .integer
        case .decimal: .decimal
        case .bool: .boolean
        case .date: .date
        case .timestamp: .timestamp
        case .string: .text
        case .json: .json
        }
    }

    /// The type of a column stored with `type`, `nil` for a type inference never gives.
    init?(_ type: ColumnType) {
        guard let found = Self.allCases.first(where: { $0.columnType == type }) else { return nil }
        self = found
    }

    /// `value` (not null) as a value of this type, which ``init(of:)`` of `value` widened into.
    func convert(_ value: JSONValue) -> FieldValue {
        switch (self, value) {
        case (.json, _): return .text(value.jsonText)
        case (.int, .number(let text)): return Int64(text).map(FieldValue.integer) ?? .text(text)
        case (.decimal, .number(let text)):
            return .text(ValueConverter.normalDecimal(text) ?? ExactDecimal(text)?.normalized ?? text)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.date, .string(let text)): return .text(CalendarDate.normalized(text) ?? text)
        case (.timestamp, .string(let text)): return .text(TimestampFormat.iso8601.normalize(value) ?? text)
        case (_, .string(let text)), (_, .number(let text)): return .text(text)
        case (_, .bool(let flag)): return .text(flag ? "true" : "false")
        default: return .text(value.jsonText)
        }
    }
}
