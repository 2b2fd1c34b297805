import FeedKit

/// One change a config makes to an entity of the store, as the next pass applies it in its
/// transaction (``SchemaPreparation``) and `feedwork schema --plan` shows it beforehand.
public enum SchemaChange: Sendable, Hashable, CustomStringConvertible {
    /// A new entity: its tables and view are created.
    case create(entity: String, columns: Int)
    /// A new column, filled by the pass, which maps every row it delivers again (a renamed
    /// field's new column too).
    case add(entity: String, column: String, type: ColumnType)
    /// A column whose type changed, converted in place when every stored value converts
    /// (``ColumnConversion``); `entity` is `<entity>__<list>` for a child table's column.
    case convert(entity: String, column: String, from: ColumnType, to: ColumnType)
    /// A retired column (``RetiredColumn``) that a field declares again: its kept values stay,
    /// and the pass fills it for the rows it delivers.
    case revive(entity: String, column: String, type: ColumnType)
    /// A column the config no longer declares: kept with its values, NULL in new rows, and
    /// marked retired in `_entities` (``RetiredColumn``).
    case retire(entity: String, column: String)
    /// A full-text index of these columns (`search:`), built from the stored rows
    /// (``SearchIndex``); it replaces an index of other columns.
    case index(entity: String, columns: [String])
    /// The full-text index of an entity whose config no longer declares `search:`, dropped.
    case dropIndex(entity: String)

    public var description: String {
        switch self {
        case .create(let entity, let columns):
            "\(entity): create the entity (\(columns) column\(columns == 1 ? "" : "s"), its table and view)"
        case .add(let entity, let column, let type):
            "\(entity): column '\(column)' added (\(type.rawValue)), filled by re-map"
        case .convert(let entity, let column, let from, let to):
            "\(entity): convert column '\(column)' from \(from.rawValue) to \(to.rawValue) in place"
                + (ColumnConversion.isSupported(from: from, to: to)
                    ? ColumnConversion.isTotal(from: from, to: to) ? "" : ", if every stored value converts"
                    : ", only if the column holds no value")
        case .revive(let entity, let column, let type):
            "\(entity): column '\(column)' revived (\(type.rawValue)): its kept values stay, filled by re-map"
        case .retire(let entity, let column):
            "\(entity): column '\(column)' retired (no longer declared): its values stay, new rows leave it NULL"
        case .index(let entity, let columns):
            "\(entity): build the full-text index of \(columns.map { "'\($0)'" }.joined(separator: ", ")) from its rows"
        case .dropIndex(let entity):
            "\(entity): drop the full-text index, no longer declared"
        }
    }
}

/// The changes between the schema an entity has in the store and the one the config declares,
/// written once for both stores: the plan a pass applies, and `feedwork schema --plan` prints.
public enum SchemaPlan {
    /// What preparing `declared` changes in a store whose schema of the entity is `stored`
    /// (`nil` when the store has none): the columns no longer declared (retired), then the
    /// declared columns in their order (a renamed field reads as its old column retired and its
    /// new one added), then the conversions of child tables' columns (`<entity>__<list>` as the
    /// entity), then the full-text index. Child tables gain columns the same way (not listed).
    /// A declared column that `retired` marks is revived (and converted when its type changed).
    public static func changes(
        declared: EntitySchema, stored: EntitySchema?, retired: [RetiredColumn] = []
    ) -> [SchemaChange] {
        let entity = declared.name
        let index: [SchemaChange] =
            declared.search == (stored?.search ?? [])
            ? []
            : declared.search.isEmpty
                ? [.dropIndex(entity: entity)] : [.index(entity: entity, columns: declared.search)]
        guard let stored else { return [.create(entity: entity, columns: declared.columns.count)] + index }
        var changes: [SchemaChange] = stored.columns.filter { declared.columnIndex($0.name) == nil }.map {
            .retire(entity: entity, column: $0.name)
        }
        for column in declared.columns {
            if let old = stored.columns.first(where: { $0.name == column.name }) {
                if old.type != column.type {
                    changes.append(.convert(entity: entity, column: column.name, from: old.type, to: column.type))
                }
            } else if let mark = retired.first(where: { $0.name == column.name }) {
                changes.append(.revive(entity: entity, column: column.name, type: column.type))
                if mark.type != column.type {
                    changes.append(.convert(entity: entity, column: column.name, from: mark.type, to: column.type))
                }
            } else {
                changes.append(.add(entity: entity, column: column.name, type: column.type))
            }
        }
        for child in declared.children {
            guard let old = stored.children.first(where: { $0.name == child.name }) else { continue }
            let table = declared.childTableName(child)
            for column in child.columns {
                guard let was = old.columns.first(where: { $0.name == column.name }), was.type != column.type
                else { continue }
                changes.append(.convert(entity: table, column: column.name, from: was.type, to: column.type))
            }
        }
        return changes + index
    }

    /// The changes of every entity of `declared`, against the store's `stored` schemas and
    /// `retired` columns by name.
    public static func changes(
        declared: [EntitySchema], stored: [String: EntitySchema], retired: [String: [RetiredColumn]] = [:]
    ) -> [SchemaChange] {
        declared.flatMap { changes(declared: $0, stored: stored[$0.name], retired: retired[$0.name] ?? []) }
    }
}
