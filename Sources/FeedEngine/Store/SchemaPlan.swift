import FeedKit

/// One change a config makes to an entity of the store, as the next pass applies it in its
/// transaction (``SchemaPreparation``) and `feedwork schema --plan` shows it beforehand.
public enum SchemaChange: Sendable, Hashable, CustomStringConvertible {
    /// A new entity: its tables and view are created.
    case create(entity: String, columns: Int)
    /// A new column, filled by the pass (a renamed field's new column too).
    case add(entity: String, column: String, type: ColumnType)
    /// A column whose type changed, converted in place when every stored value converts
    /// (``ColumnConversion``).
    case convert(entity: String, column: String, from: ColumnType, to: ColumnType)
    /// A column the config no longer declares: kept with its values, NULL in new rows.
    case retire(entity: String, column: String)

    public var description: String {
        switch self {
        case .create(let entity, let columns):
            "\(entity): create the entity (\(columns) column\(columns == 1 ? "" : "s"), its table and view)"
        case .add(let entity, let column, let type):
            "\(entity): add column '\(column)' (\(type.rawValue)), filled by the pass"
        case .convert(let entity, let column, let from, let to):
            "\(entity): convert column '\(column)' from \(from.rawValue) to \(to.rawValue) in place"
                + (ColumnConversion.isSupported(from: from, to: to)
                    ? ColumnConversion.isTotal(from: from, to: to) ? "" : ", if every stored value converts"
                    : ", only if the column holds no value")
        case .retire(let entity, let column):
            "\(entity): keep column '\(column)', no longer declared: its values stay, new rows leave it NULL"
        }
    }
}

/// The changes between the schema an entity has in the store and the one the config declares,
/// written once for both stores: the plan a pass applies, and `feedwork schema --plan` prints.
public enum SchemaPlan {
    /// What preparing `declared` changes in a store whose schema of the entity is `stored`
    /// (`nil` when the store has none): in the order of the declared columns, then the
    /// columns no longer declared. Child tables gain columns the same way (not listed).
    public static func changes(declared: EntitySchema, stored: EntitySchema?) -> [SchemaChange] {
        let entity = declared.name
        guard let stored else { return [.create(entity: entity, columns: declared.columns.count)] }
        var changes: [SchemaChange] = []
        for column in declared.columns {
            if let old = stored.columns.first(where: { $0.name == column.name }) {
                if old.type != column.type {
                    changes.append(.convert(entity: entity, column: column.name, from: old.type, to: column.type))
                }
            } else {
                changes.append(.add(entity: entity, column: column.name, type: column.type))
            }
        }
        for column in stored.columns where declared.columnIndex(column.name) == nil {
            changes.append(.retire(entity: entity, column: column.name))
        }
        return changes
    }

    /// The changes of every entity of `declared`, against the store's `stored` schemas by name.
    public static func changes(declared: [EntitySchema], stored: [String: EntitySchema]) -> [SchemaChange] {
        declared.flatMap { changes(declared: $0, stored: stored[$0.name]) }
    }
}
