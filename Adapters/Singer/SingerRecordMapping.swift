import FeedKit

/// A RECORD's `record` object as an entity record of its stream: a pure function.
///
/// Each property is checked against its schema type and converted (numbers kept exact,
/// date-times normalized to UTC, objects and lists kept as JSON text); a missing property is
/// `null`. Properties the schema does not define are left out, and returned so the pass can
/// note them.
enum SingerRecordMapping {
    /// The record, and the names of the properties it had that the schema does not define.
    ///
    /// - Throws: ``RecordError`` naming the property (`price`) and why it does not match its
    ///   schema: `expected an integer, found a string '12'`.
    static func record(_ value: JSONValue, of stream: SingerStream) throws(RecordError) -> (
        record: EntityRecord, unknown: [String]
    ) {
        guard case .object(let object) = value else {
            throw RecordError(reason: "expected an object, found \(value.kindName)")
        }
        var values: [FieldValue] = []
        values.reserveCapacity(stream.fields.count)
        for field in stream.fields {
            values.append(
                try convert(object[field.property] ?? .null, field: field, missing: object[field.property] == nil))
        }
        var unknown: [String] = []
        if object.members.count > stream.fields.count || stream.fields.contains(where: { object[$0.property] == nil }) {
            let known = Set(stream.fields.map(\.property))
            unknown = object.keys.filter { !known.contains($0) }
        }
        let key: String
        if stream.keyedByContent {
            key = SHA256.hexDigest(values.map(\.description).joined(separator: "\u{1F}").utf8)
        } else {
            var parts: [String] = []
            for column in stream.schema.key {
                guard let index = stream.schema.columnIndex(column) else { continue }
                if values[index].isNull {
                    throw RecordError(field: stream.fields[index].property, reason: "key property is missing or null")
                }
                parts.append(values[index].description)
            }
            // As EntityRecord(schema:values:) joins them.
            key = parts.joined(separator: "|")
        }
        let record = EntityRecord(entity: stream.schema.name, key: key, values: values)
        return (record, unknown)
    }

    /// `value` as the column's value.
    static func convert(_ value: JSONValue, field: SingerStream.Field, missing: Bool = false) throws(RecordError)
        -> FieldValue
    {
        func mismatch() -> RecordError {
            RecordError(field: field.property, reason: "expected \(field.kind.schemaName), found \(describe(value))")
        }
        if case .null = value {
            if missing || field.nullable { return .null }
            throw RecordError(field: field.property, reason: "expected \(field.kind.schemaName), found null")
        }
        switch field.kind {
        case .integer:
            guard case .number(let text) = value, let integer = ExactDecimal(text)?.int64Value else { throw mismatch() }
            return .integer(integer)
        case .decimal:
            guard case .number(let text) = value, let decimal = ExactDecimal(text) else { throw mismatch() }
            return .text(decimal.normalized)
        case .timestamp:
            guard case .string(let text) = value, let instant = ISO8601.normalized(text) else { throw mismatch() }
            return .text(instant)
        case .date:
            guard case .string(let text) = value, let date = CalendarDate.normalized(text) else { throw mismatch() }
            return .text(date)
        case .boolean:
            guard case .bool(let flag) = value else { throw mismatch() }
            return .bool(flag)
        case .text:
            guard case .string(let text) = value else { throw mismatch() }
            return .text(text)
        case .object:
            guard case .object = value else { throw mismatch() }
            return .text(value.jsonText)
        case .array:
            guard case .array = value else { throw mismatch() }
            return .text(value.jsonText)
        case .any:
            return .text(value.jsonText)
        }
    }

    /// A value for a message: its kind, and its text when short (`a string '12'`).
    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text) where text.count <= 40: "\(value.kindName) '\(text)'"
        case .number(let text) where text.count <= 40: "\(value.kindName) \(text)"
        case .bool(let flag): "\(value.kindName) \(flag)"
        default: value.kindName
        }
    }
}
