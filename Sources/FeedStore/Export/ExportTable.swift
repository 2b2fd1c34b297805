import FeedKit

/// A table `export` can read: an entity's table or one of its child tables (`<entity>__<list>`).
public struct ExportTable: Sendable, Hashable {
    /// The table's name, which is also the name the user exports it by.
    public var name: String
    /// The store's `_` columns of the table, in table order.
    public var metaFields: [ExportField]
    /// The schema's columns, in schema order.
    public var dataFields: [ExportField]
    /// The order used when the request names none.
    public var defaultOrder: [OrderTerm]
    /// The entity's relations to other entities (none for a child table).
    public var relations: [Relation]
    /// For a child table, the entity whose rows own it.
    public var parent: String?
    /// The entity's key columns (none for a child table, whose rows are keyed by `_key`).
    public var key: [String]

    /// Every field, `_` columns first.
    public var allFields: [ExportField] { metaFields + dataFields }

    /// The field named `name`, or `nil`.
    public func field(_ name: String) -> ExportField? { allFields.first { $0.name == name } }

    /// The table of an entity.
    public init(entity schema: EntitySchema) {
        name = schema.name
        metaFields = [
            ExportField(name: "_feed", type: .text, isMeta: true),
            ExportField(name: "_key", type: .text, isMeta: true),
            ExportField(name: "_hash", type: .integer, isMeta: true),
            ExportField(name: "_run", type: .integer, isMeta: true),
            ExportField(name: "_first_seen", type: .timestamp, isMeta: true),
            ExportField(name: "_last_seen", type: .timestamp, isMeta: true),
        ]
        dataFields = schema.columns.map { ExportField(name: $0.name, type: $0.type, currency: $0.currency) }
        defaultOrder = schema.order
        relations = schema.relations
        parent = nil
        key = schema.key
    }

    /// The table of one of an entity's child lists. Its `_feed`, `_key` (the parent's key) and
    /// `_position` are always exported, since they are what joins a child row to its parent.
    public init(child: ChildSchema, of schema: EntitySchema) {
        name = schema.childTableName(child)
        metaFields = [
            ExportField(name: "_feed", type: .text, isMeta: true),
            ExportField(name: "_key", type: .text, isMeta: true),
            ExportField(name: "_position", type: .integer, isMeta: true),
        ]
        dataFields = child.columns.map { ExportField(name: $0.name, type: $0.type) }
        defaultOrder = [.ascending("_feed"), .ascending("_key"), .ascending("_position")]
        relations = []
        parent = schema.name
        key = []
    }

    /// The fields written when the request names no columns.
    package func defaultFields(includeMeta: Bool) -> [ExportField] {
        includeMeta || parent != nil ? allFields : dataFields
    }

    /// Every exportable table of `schemas`: each entity followed by its child tables, by name.
    public static func all(in schemas: [String: EntitySchema]) -> [ExportTable] {
        schemas.keys.sorted().flatMap { name -> [ExportTable] in
            guard let schema = schemas[name] else { return [] }
            return [ExportTable(entity: schema)] + schema.children.map { ExportTable(child: $0, of: schema) }
        }
    }
}
