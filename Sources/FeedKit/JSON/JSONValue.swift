/// A parsed JSON document that keeps numbers as their literal text, so no digit is lost.
///
/// `19.99` stays `"19.99"` until an adapter asks for it as an integer, a `Decimal` or minor
/// units. Objects keep their keys in document order, so a rejected record's raw JSON reads as
/// it arrived.
public enum JSONValue: Sendable, Hashable {
    /// The literal `null` (an absent member is `nil`, not this).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number as written in the document, e.g. `-1.5e3`.
    case number(String)
    /// A string, escapes decoded.
    case string(String)
    /// An array, elements in document order.
    case array([JSONValue])
    /// An object, members in document order (``JSONObject``).
    case object(JSONObject)

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array, or `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    /// Whether the value is the literal `null`.
    public var isNull: Bool { self == .null }

    /// The text of a string, or `nil` for other values (a number is not converted).
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The flag of a boolean, or `nil` for other values (`"true"` is not converted).
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements of an array, or `nil` for other values.
    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The members of an object, or `nil` for other values.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The number's literal text, or `nil` for other values.
    public var numberText: String? {
        if case .number(let text) = self { return text }
        return nil
    }

    /// The value as an `Int64` when it is a number with no fractional part (`12`, `12.0`, `1.2e1`).
    public var int64Value: Int64? {
        guard let text = numberText else { return nil }
        if let value = Int64(text) { return value }
        guard let decimal = ExactDecimal(text), let value = decimal.int64Value else { return nil }
        return value
    }

    /// The number as an exact decimal.
    public var decimalValue: ExactDecimal? { numberText.flatMap(ExactDecimal.init) }

    /// The number as a `Double` (not for money).
    public var doubleValue: Double? { numberText.flatMap(Double.init) }

    /// A short name of the value's kind for messages: `a string`, `null`...
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// A JSON object's members in document order.
public struct JSONObject: Sendable, Hashable {
    /// The members in document order; a name may repeat.
    public var members: [(key: String, value: JSONValue)]

    /// An object with `members`, in that order.
    public init(_ members: [(key: String, value: JSONValue)]) { self.members = members }

    /// The value of the last member named `key` (JSON's usual rule for repeated names).
    public subscript(key: String) -> JSONValue? {
        for member in members.reversed() where member.key == key { return member.value }
        return nil
    }

    /// The members' names in document order, repeats included.
    public var keys: [String] { members.map(\.key) }

    /// Whether both have the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
