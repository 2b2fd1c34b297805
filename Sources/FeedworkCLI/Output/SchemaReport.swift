import FeedEngine
import FeedKit
import Foundation

/// What `feedwork schema` prints: each entity's tables as the store creates them, as text or as
/// JSON (snake_case keys, one object per entity).
struct SchemaReport: Encodable {
    struct ColumnInfo: Encodable {
        var name: String
        var type: String
        var nullable: Bool
        @NullWhenAbsent var summary: String?
        /// For money in minor units: its ISO 4217 currency.
        @NullWhenAbsent var currency: String?
        /// Whether the column was found in the records (`extra: columns`) rather than declared.
        var found = false
    }

    /// A column the entity's fields no longer declare, kept with its values (``RetiredColumn``).
    struct RetiredInfo: Encodable {
        var name: String
        var type: String
        var retiredAt: String
    }

    struct RelationInfo: Encodable {
        var column: String
        var entity: String
        @NullWhenAbsent var label: String?
        /// Whether the store declares the relation as a SQL foreign key.
        var enforced: Bool
    }

    struct ChildInfo: Encodable {
        var table: String
        var systemColumns: [String]
        var columns: [ColumnInfo]
    }

    struct FeedInfo: Encodable {
        var name: String
        var write: String
        var enabled: Bool
    }

    var entity: String
    @NullWhenAbsent var summary: String?
    var key: [String]
    var systemColumns: [String]
    var columns: [ColumnInfo]
    var relations: [RelationInfo]
    /// Terms as `export --order` takes them: `-price` for descending.
    var order: [String]
    var children: [ChildInfo]
    var feeds: [FeedInfo]
    /// Whether a feed declares the entity during its pass (`extra: columns`): its columns are
    /// the store's when it has the entity, else the declared ones only.
    var declaredDuringPass = false
    /// The columns marked retired in the store's `_entities` (none without a store).
    var retired: [RetiredInfo] = []

    init(_ declared: DeclaredEntity) {
        self.init(
            schema: declared.schema,
            feeds: declared.writers.map { FeedInfo(name: $0.feed, write: $0.mode.rawValue, enabled: $0.enabled) })
    }

    /// `declared`, with the columns the store marks retired.
    init(_ declared: DeclaredEntity, retired: [RetiredColumn]?) {
        self.init(declared)
        add(retired: retired)
    }

    /// Lists the columns of `marks` as retired.
    mutating func add(retired marks: [RetiredColumn]?) {
        retired = (marks ?? []).map { RetiredInfo(name: $0.name, type: $0.type.rawValue, retiredAt: $0.retiredAt) }
    }

    /// `declared`, an entity a feed declares during its pass, with the columns of `stored`, the
    /// store's schema of it (`nil` when it has none), those the config does not declare marked
    /// found.
    init(duringPass declared: DeclaredEntity, stored: EntitySchema?) {
        var shown = declared
        if let stored { shown.schema = stored }
        self.init(shown)
        declaredDuringPass = true
        for index in columns.indices where declared.schema.columnIndex(columns[index].name) == nil {
            columns[index].found = true
        }
    }

    /// `schema` as written by `feeds` (none for an adapter's entity outside a config).
    init(schema: EntitySchema, feeds: [FeedInfo]) {
        func columns(_ list: [FeedKit.Column]) -> [ColumnInfo] {
            list.map {
                ColumnInfo(
                    name: $0.name, type: $0.type.rawValue, nullable: $0.nullable,
                    summary: $0.summary.isEmpty ? nil : $0.summary, currency: $0.currency)
            }
        }
        entity = schema.name
        summary = schema.summary.isEmpty ? nil : schema.summary
        key = schema.key
        systemColumns = DeclaredEntity.systemColumns
        self.columns = columns(schema.columns)
        relations = schema.relations.map {
            RelationInfo(column: $0.column, entity: $0.entity, label: $0.labelColumn, enforced: $0.enforced)
        }
        order = schema.order.map { ($0.descending ? "-" : "") + $0.column }
        children = schema.children.map {
            ChildInfo(
                table: schema.childTableName($0), systemColumns: DeclaredEntity.childSystemColumns,
                columns: columns($0.columns))
        }
        self.feeds = feeds
    }

    /// The entity as a few lines of text and a table of its columns.
    var text: String {
        var lines = ["\(entity) (key: \(key.joined(separator: ", ")))" + (summary.map { ": \($0)" } ?? "")]
        let writers = feeds.map { "\($0.name) (\($0.write)\($0.enabled ? "" : ", disabled"))" }
        lines.append("  written by: \(writers.joined(separator: ", "))")
        var table = TextTable(["column", "type", "null", "about"])
        if declaredDuringPass {
            lines.append(
                "  declared during each pass (extra: columns): "
                    + (columns.contains(where: \.found)
                        ? "columns marked found were found in the records" : "no columns found in the records yet"))
        }
        for column in columns {
            let unit = column.currency.map { "\($0) minor units" }
            let about = [column.summary, unit].compactMap { $0 }.joined(separator: "; ")
            table.add([
                column.name + (column.found ? " (found)" : ""), column.type, column.nullable ? "yes" : "no", about,
            ])
        }
        for column in retired {
            table.add([column.name + " (retired)", column.type, "yes", "no longer declared since \(column.retiredAt)"])
        }
        lines += table.rendered.split(separator: "\n").map { "  " + $0 }
        lines.append("  system columns: \(systemColumns.joined(separator: ", "))")
        for relation in relations {
            let details = [relation.label.map { "label \($0)" }, relation.enforced ? "enforced: a foreign key" : nil]
                .compactMap { $0 }
            lines.append(
                "  relation: \(relation.column) -> \(relation.entity)"
                    + (details.isEmpty ? "" : " (\(details.joined(separator: "; ")))"))
        }
        if !order.isEmpty { lines.append("  order: \(order.joined(separator: ","))") }
        for child in children {
            let columns = (child.systemColumns + child.columns.map { "\($0.name) \($0.type)" })
            lines.append("  child table \(child.table): \(columns.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
