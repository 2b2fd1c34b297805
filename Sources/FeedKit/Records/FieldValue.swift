/// One value of a record's field, as the store keeps it.
///
/// The column's ``ColumnType`` gives the value its meaning: a `.text` in a `.decimal` column is
/// an exact decimal such as `"1.0735"`, in a `.timestamp` column an ISO 8601 UTC instant.
public enum FieldValue: Sendable, Hashable {
    /// No value: `null` in the store and the export.
    case null
    /// An `integer` column's value; also money in minor units.
    case integer(Int64)
    /// A `real` column's value (never money).
    case real(Double)
    /// A `text`, `decimal`, `timestamp`, `date` or `json` column's value, as text.
    case text(String)
    /// A `boolean` column's value.
    case bool(Bool)
}

extension FieldValue {
    /// `.null` for `nil`, otherwise `.text`.
    public static func text(_ value: String?) -> FieldValue { value.map(FieldValue.text) ?? .null }

    /// `.null` for `nil`, otherwise `.integer`.
    public static func integer(_ value: Int?) -> FieldValue { value.map { .integer(Int64($0)) } ?? .null }

    /// `.null` for `nil`, otherwise `.real`.
    public static func real(_ value: Double?) -> FieldValue { value.map(FieldValue.real) ?? .null }

    /// Whether the value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension FieldValue: CustomStringConvertible {
    /// The value as a key part or a message shows it: text unquoted, `null` for no value.
    public var description: String {
        switch self {
        case .null: "null"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .bool(let value): String(value)
        }
    }
}
