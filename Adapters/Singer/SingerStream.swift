import FeedKit

/// A Singer stream as Feedwork writes it: its entity, and how each record property becomes a
/// column value. Made from a SCHEMA message or a catalog entry by ``SingerSchemaMapping``.
struct SingerStream: Sendable, Equatable {
    /// The stream's name, as the tap writes it in its messages.
    var name: String
    /// The entity and its write mode.
    var binding: EntityBinding
    /// One per column, in column order.
    var fields: [Field]
    /// Whether the stream has no `key_properties`: each distinct record is then a row, keyed
    /// by a hash of its values.
    var keyedByContent: Bool
    /// The stream's `bookmark_properties`, recorded in the entity's summary.
    var bookmarkProperties: [String]

    var schema: EntitySchema { binding.schema }

    /// One record property and the column it fills.
    struct Field: Sendable, Equatable {
        /// The property's name in the record.
        var property: String
        var kind: Kind
        /// Whether the schema allows `null`.
        var nullable: Bool
    }

    /// What a property's JSON Schema type accepts and how its values are stored.
    enum Kind: Sendable, Equatable {
        /// `integer`: a whole number that fits 64 bits.
        case integer
        /// `number`: an exact decimal, kept with its digits.
        case decimal
        /// `string` with `format: date-time`: an ISO 8601 instant, stored in UTC.
        case timestamp
        /// `string` with `format: date`: a calendar date (`2024-02-29`), no time zone.
        case date
        /// `boolean`.
        case boolean
        /// `string`.
        case text
        /// `object`: a JSON object, stored as JSON text.
        case object
        /// `array`: a JSON list, stored as JSON text.
        case array
        /// Several types, or none given: any JSON value, stored as JSON text.
        case any

        var columnType: ColumnType {
            switch self {
            case .integer: .integer
            case .decimal: .decimal
            case .timestamp: .timestamp
            case .date: .date
            case .boolean: .boolean
            case .text: .text
            case .object, .array, .any: .json
            }
        }

        /// The JSON Schema type, for messages.
        var schemaName: String {
            switch self {
            case .integer: "an integer"
            case .decimal: "a number"
            case .timestamp: "a date-time string"
            case .date: "a date string (YYYY-MM-DD)"
            case .boolean: "a boolean"
            case .text: "a string"
            case .object: "an object"
            case .array: "a list"
            case .any: "any value"
            }
        }
    }
}
