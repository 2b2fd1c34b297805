/// One normalized record, ready for the store.
///
/// `values` follow the order of the schema's columns. Build one from named fields with
/// ``init(schema:fields:)``, which also computes the key.
public struct EntityRecord: Sendable, Hashable {
    public var entity: String
    /// The record's key within its feed: the key columns' values joined with `|`.
    public var key: String
    public var values: [FieldValue]
    /// Rows of the schema's child lists, by child name; each row follows the child's columns.
    public var children: [String: [[FieldValue]]]

    public init(entity: String, key: String, values: [FieldValue], children: [String: [[FieldValue]]] = [:]) {
        self.entity = entity
        self.key = key
        self.values = values
        self.children = children
    }

    /// A record from named fields. Fields the schema does not have are a programming error and
    /// are reported by a thrown ``RecordError``; missing fields are `null`.
    public init(schema: EntitySchema, fields: [String: FieldValue], children: [String: [[FieldValue]]] = [:]) throws {
        for name in fields.keys where schema.columnIndex(name) == nil {
            throw RecordError(reason: "entity '\(schema.name)' has no column '\(name)'")
        }
        let values = schema.columns.map { fields[$0.name] ?? .null }
        try self.init(schema: schema, values: values, children: children)
    }

    /// A record from values in column order; the key is derived from the schema's key columns.
    public init(schema: EntitySchema, values: [FieldValue], children: [String: [[FieldValue]]] = [:]) throws {
        var parts: [String] = []
        parts.reserveCapacity(schema.key.count)
        for column in schema.key {
            guard let index = schema.columnIndex(column) else {
                throw RecordError(reason: "entity '\(schema.name)' has no key column '\(column)'")
            }
            let value = values[index]
            if value.isNull { throw RecordError(reason: "key field '\(column)' is missing or null") }
            parts.append(value.description)
        }
        self.init(entity: schema.name, key: parts.joined(separator: "|"), values: values, children: children)
    }

    /// The value of a named column, or `nil` when the schema has no such column.
    public func value(_ column: String, in schema: EntitySchema) -> FieldValue? {
        schema.columnIndex(column).map { values[$0] }
    }
}

/// Why one item of a response cannot be stored: the field at fault, when one is (a path below
/// the item: `price`, `images_url.small`), and a reason. A mapping function throws it for an
/// item, and turns it into a ``Reject`` with ``Reject/init(entity:item:at:error:)``.
public struct RecordError: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String?
    public var reason: String

    public init(field: String? = nil, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { reason }
}

/// A record that failed mapping or validation, kept in `_rejects` with its reason, raw JSON and
/// the response it came from.
public struct Reject: Sendable, Hashable {
    public var entity: String
    public var reason: String
    /// Where in the response the record was, e.g. `$.fruit[3]`.
    public var path: String
    /// The record's JSON as received (or as close to it as the adapter has).
    public var raw: String
    /// The response the record came from. Usually left `nil`: the reject then gets the
    /// ``RecordBatch/source`` of the batch it is written in.
    public var source: RecordSource?

    public init(entity: String, reason: String, path: String, raw: String, source: RecordSource? = nil) {
        self.entity = entity
        self.reason = reason
        self.path = path
        self.raw = raw
        self.source = source
    }

    /// A reject of `item`, found at `path` (`$.fruit[3]`), for `error`: its field, if any, is
    /// appended to the path (`$.fruit[3].price`).
    public init(entity: String, item: JSONValue, at path: String, error: RecordError) {
        self.init(
            entity: entity, reason: error.reason, path: path + (error.field.map { ".\($0)" } ?? ""), raw: item.jsonText)
    }
}
