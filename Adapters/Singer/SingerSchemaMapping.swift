import FeedKit

/// A stream's JSON Schema as an entity: a pure function of the SCHEMA message (or catalog
/// entry) and the feed's options for the stream.
///
/// | JSON Schema | column |
/// |---|---|
/// | `integer` | `integer` |
/// | `number` (or `integer` and `number`) | `decimal`, exact |
/// | `string` with `format: date-time` | `timestamp`, UTC |
/// | `string` with `format: date` | `date` (`YYYY-MM-DD`) |
/// | `string` | `text` |
/// | `boolean` | `boolean` |
/// | `object`, `array`, several types, none | `json` |
///
/// `["null", T]`, and `anyOf`/`oneOf` with a `null` alternative, make a column nullable.
/// `key_properties` make the key; a stream without them is keyed by a hash of each record's
/// values, so each distinct record is one row.
enum SingerSchemaMapping {
    /// The entity of stream `name`.
    ///
    /// - Throws: ``SingerError/Reason/badSchema(stream:message:)`` when the schema has no
    ///   properties object or a key property it does not define.
    static func stream(
        _ name: String, schema: JSONValue, keyProperties: [String], bookmarkProperties: [String],
        options: SingerAdapter.StreamOptions? = nil
    ) throws(SingerError.Reason) -> SingerStream {
        let properties: JSONObject
        switch schema["properties"] {
        case .object(let object)?: properties = object
        case nil, .null?: properties = JSONObject([])
        case let other?:
            throw .badSchema(stream: name, message: "\"properties\" must be an object, found \(other.kindName)")
        }
        let keyProperties = options?.key ?? keyProperties
        for property in keyProperties where properties[property] == nil {
            throw .badSchema(stream: name, message: "key property '\(property)' is not among its properties")
        }
        let columnNames = SingerNames.distinct(properties.keys)
        var fields: [SingerStream.Field] = []
        var columns: [Column] = []
        for ((property, definition), column) in zip(properties.members, columnNames) {
            let (kind, nullable) = self.kind(of: definition)
            let isKey = keyProperties.contains(property)
            fields.append(SingerStream.Field(property: property, kind: kind, nullable: nullable && !isKey))
            var notes: [String] = []
            if column != property { notes.append("property '\(property)'") }
            if bookmarkProperties.contains(property) { notes.append("bookmark") }
            columns.append(
                Column(column, kind.columnType, nullable: !isKey, summary: notes.joined(separator: "; ")))
        }
        let key = keyProperties.compactMap { property in
            properties.keys.firstIndex(of: property).map { columnNames[$0] }
        }
        let entity = options?.entity ?? SingerNames.sanitized(name)
        let summary =
            "Singer stream '\(name)'"
            + (bookmarkProperties.isEmpty ? "" : "; bookmark: " + bookmarkProperties.joined(separator: ", "))
            + (key.isEmpty ? "; no key_properties: one row per distinct record" : "")
        let order = key.map { OrderTerm.ascending($0) }
        return SingerStream(
            name: name,
            binding: EntityBinding(
                EntitySchema(name: entity, columns: columns, key: key, order: order, summary: summary),
                mode: options?.write ?? .merge),
            fields: fields, keyedByContent: key.isEmpty, bookmarkProperties: bookmarkProperties)
    }

    /// What a property's JSON Schema accepts, and whether it allows `null`.
    static func kind(of definition: JSONValue) -> (kind: SingerStream.Kind, nullable: Bool) {
        if let alternatives = (definition["anyOf"] ?? definition["oneOf"])?.arrayValue {
            var kinds: [SingerStream.Kind] = []
            var nullable = false
            for alternative in alternatives {
                if alternative["type"]?.stringValue == "null" {
                    nullable = true
                    continue
                }
                let (kind, allowsNull) = self.kind(of: alternative)
                nullable = nullable || allowsNull
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            return (combined(kinds), nullable || kinds.isEmpty)
        }
        var types: [String]
        switch definition["type"] {
        case .string(let type)?: types = [type]
        case .array(let items)?: types = items.compactMap(\.stringValue)
        default:
            // No type: an object when it lists properties, else anything.
            return definition["properties"] == nil ? (.any, true) : (.object, true)
        }
        let nullable = types.contains("null")
        types.removeAll { $0 == "null" }
        let format = definition["format"]?.stringValue
        let kinds = types.map { kind(named: $0, format: format) }
        return (combined(kinds), nullable || kinds.isEmpty)
    }

    /// One kind for the non-null alternatives: the only one, a decimal for integer-or-number,
    /// else any value.
    private static func combined(_ kinds: [SingerStream.Kind]) -> SingerStream.Kind {
        var distinct: [SingerStream.Kind] = []
        for kind in kinds where !distinct.contains(kind) { distinct.append(kind) }
        if distinct.count == 1 { return distinct[0] }
        if Set(distinct.map(\.columnType)) == [.integer, .decimal] { return .decimal }
        return .any
    }

    private static func kind(named type: String, format: String?) -> SingerStream.Kind {
        switch type {
        case "integer": .integer
        case "number": .decimal
        case "string": format == "date-time" ? .timestamp : format == "date" ? .date : .text
        case "boolean": .boolean
        case "object": .object
        case "array": .array
        default: .any
        }
    }
}
