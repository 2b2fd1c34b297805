/// One value of a record's field, as the store keeps it.
///
/// The column's ``ColumnType`` gives the value its meaning: a `.text` in a `.decimal` column is
/// an exact decimal such as `"1.0735"`, in a `.timestamp` column an ISO 8601 UTC instant.
public enum FieldValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bool(Bool)
}

extension FieldValue {
    /// `.null` for `nil`, otherwise `.text`.
    public static func text(_ value: String?) -> FieldValue { value.map(FieldValue.text) ?? .null }

    /// `.null` for `nil`, otherwise `.integer`.
    public static func integer(_ value: Int?) -> FieldValue { value.map { .integer(Int64($0)) } ?? .null }

    /// `.null` for `nil`, otherwise `.real`.
    public static func real(_ value: Double?) -> FieldValue { value.map(FieldValue.real) ?? .null }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension FieldValue: CustomStringConvertible {
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
