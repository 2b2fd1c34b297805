/// One normalized record, ready for the store.
///
/// `values` follow the order of the schema's columns. Build one from named fields with
/// ``init(schema:fields:children:)``, which also computes the key.
public struct EntityRecord: Sendable, Hashable {
    /// The name of the entity (``EntitySchema/name``) the record belongs to.
    public var entity: String
    /// The record's key within its feed: the key columns' values joined with `|`.
    public var key: String
    /// One value per column of the entity's schema, in the schema's column order.
    public var values: [FieldValue]
    /// Rows of the schema's child lists, by child name; each row follows the child's columns.
    public var children: [String: [[FieldValue]]]

    /// A record whose key is given as it is; ``init(schema:fields:children:)`` computes it instead.
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
    /// The field at fault, as a path below the item (`price`, `images_url.small`), or `nil`.
    public var field: String?
    /// Why the item cannot be stored, in words for `feedwork rejects`.
    public var reason: String

    /// An error for the item's `field` (or the whole item) saying `reason`.
    public init(field: String? = nil, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// The reason alone; the reject's path tells the field.
    public var description: String { reason }
}

/// A record that failed mapping or validation, kept in `_rejects` with its reason, raw JSON and
/// the response it came from.
public struct Reject: Sendable, Hashable {
    /// The entity the item would have been a record of.
    public var entity: String
    /// Why the item was rejected, shown by `feedwork rejects` (secrets redacted by the pass).
    public var reason: String
    /// Where in the response the record was, e.g. `$.fruit[3]`.
    public var path: String
    /// The record's JSON as received (or as close to it as the adapter has).
    public var raw: String
    /// The response the record came from. Usually left `nil`: the reject then gets the
    /// ``RecordBatch/source`` of the batch it is written in.
    public var source: RecordSource?

    /// A reject of the item at `path`, whose JSON was `raw`.
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
