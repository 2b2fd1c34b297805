import FeedEngine
import FeedKit
import Foundation

/// Values as text for people: typed by their column, never escaped here (the templates escape
/// every value they print).
enum ValueText {
    /// The value as the store holds it, or `nil` for null.
    static func plain(_ value: FieldValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): number.description
        case .bool(let flag): flag ? "true" : "false"
        case .text(let text): text
        }
    }

    /// The value formatted for its column: money as `£2.49` (minor units by the currency's
    /// exponent), decimals as written, booleans as yes/no, timestamps as UTC, JSON as written.
    static func display(_ value: FieldValue, field: ExportField) -> String {
        guard let text = plain(value) else { return "" }
        switch field.type {
        case .boolean: return text == "1" || text == "true" ? "yes" : "no"
        case .integer:
            guard let currency = field.currency, case .integer(let minor) = value else { return text }
            return Money.display(minorUnits: minor, currency: currency)
        case .timestamp:
            return text.hasSuffix("Z") ? text.dropLast().replacingOccurrences(of: "T", with: " ") + " UTC" : text
        default: return text
        }
    }

    /// JSON text indented for reading, its numbers and member order as written; the text itself
    /// when it is not JSON.
    static func pretty(_ json: String) -> String {
        (try? JSONParser.parse(json))?.indentedJSONText ?? json
    }
}

extension EntityPage {
    /// A `money` column of this page with its currency: the schema's, else the row's `currency`
    /// column.
    func moneyField(_ field: ExportField, in row: [FieldValue]) -> ExportField {
        guard field.currency == nil, case .text(let currency) = value("currency", in: row) else { return field }
        var field = field
        field.currency = currency
        return field
    }
}
