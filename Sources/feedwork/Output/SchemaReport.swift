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

    init(_ declared: DeclaredEntity) {
        self.init(
            schema: declared.schema,
            feeds: declared.writers.map { FeedInfo(name: $0.feed, write: $0.mode.rawValue, enabled: $0.enabled) })
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
        for column in columns {
            let unit = column.currency.map { "\($0) minor units" }
            let about = [column.summary, unit].compactMap { $0 }.joined(separator: "; ")
            table.add([column.name, column.type, column.nullable ? "yes" : "no", about])
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
