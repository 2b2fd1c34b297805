import FeedKit

/// Singer messages (one JSON object per line, per the Singer specification): a `SCHEMA` message
/// for the table, then one `RECORD` per row. ``Exporter`` ends the stream with a `STATE`
/// message (``SingerState``), after every table of the export.
///
/// Column types become JSON Schema, every column nullable:
///
/// | column type | JSON Schema | value |
/// |---|---|---|
/// | integer | `integer` | number |
/// | real | `number` | number |
/// | boolean | `boolean` | `true` / `false` |
/// | decimal | `string`, `format: singer.decimal` | the exact decimal as a string (`"1.0735"`) |
/// | text | `string` | string |
/// | timestamp | `string`, `format: date-time` | ISO 8601 UTC |
/// | json | any | the document embedded |
///
/// The stream is the table's name; `key_properties` are the entity's key fields when they are
/// exported (a child table's are `_feed`, `_key` and `_position`).
public struct SingerWriter: ExportWriter {
    private let table: ExportTable
    private let fields: [ExportField]
    private let encoder: JSONRowEncoder
    private let recordPrefix: String

    public init(table: ExportTable, fields: [ExportField]) {
        self.table = table
        self.fields = fields
        encoder = JSONRowEncoder(fields: fields)
        recordPrefix = #"{"type":"RECORD","stream":"# + JSONValue.string(table.name).jsonText + #","record":"#
    }

    /// The SCHEMA message of the table, as one line of JSON without its newline.
    package var schemaMessage: String {
        let names = Set(fields.map(\.name))
        let key = table.parent == nil ? table.key : ["_feed", "_key", "_position"]
        let properties = JSONObject(fields.map { ($0.name, Self.jsonSchema(of: $0.type)) })
        let message: JSONValue = .object(
            JSONObject([
                ("type", .string("SCHEMA")),
                ("stream", .string(table.name)),
                ("schema", .object(JSONObject([("type", .string("object")), ("properties", .object(properties))]))),
                ("key_properties", .array(key.allSatisfy(names.contains) ? key.map { .string($0) } : [])),
            ]))
        return message.jsonText
    }

    package static func jsonSchema(of type: ColumnType) -> JSONValue {
        func nullable(_ name: String, format: String? = nil) -> JSONValue {
            var members: [(String, JSONValue)] = [("type", .array([.string(name), .string("null")]))]
            if let format { members.append(("format", .string(format))) }
            return .object(JSONObject(members))
        }
        switch type {
        case .integer: return nullable("integer")
        case .real: return nullable("number")
        case .boolean: return nullable("boolean")
        case .decimal: return nullable("string", format: "singer.decimal")
        case .text: return nullable("string")
        case .timestamp: return nullable("string", format: "date-time")
        case .date: return nullable("string", format: "date")
        case .json: return .object(JSONObject([]))
        }
    }

    public mutating func begin(_ output: ExportOutput) throws(ExportError) {
        output.append(schemaMessage)
        output.append(UInt8(ascii: "\n"))
        try output.flushIfNeeded()
    }

    public mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError) {
        output.append(recordPrefix)
        encoder.encode(row, to: output)
        output.append("}\n")
        try output.flushIfNeeded()
    }

    /// Singer has no message for a deleted row; ``Exporter`` refuses `--include-deleted` with
    /// this format, so this is never called.
    public mutating func writeDeleted(_ tombstone: [FieldValue], to output: ExportOutput) throws(ExportError) {
        throw SingerState.noDeletedRows
    }

    public mutating func end(_ output: ExportOutput) {}
}
