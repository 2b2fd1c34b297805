import FeedKit

/// The schema contract (``SchemaContract``) of a pass, checked against the store's tables before
/// a pass changes them, once for both stores.
extension SchemaPreparation {
    /// Why `binding` may not change the stored table of its entity, whose recorded schema is
    /// `stored`: a column the table lacks under `new_columns: freeze`, or a column of another
    /// type under `type_changes: freeze`; `nil` when the contract allows every change (or the
    /// store holds no such entity yet, whose first pass creates its table).
    package static func contractProblem(_ binding: EntityBinding, stored: EntitySchema?) -> String? {
        guard let stored else { return nil }
        let contract = binding.contract
        let schema = binding.schema
        var tables = [(schema.name, schema.columns, stored.columns)]
        for child in schema.children {
            guard let storedChild = stored.children.first(where: { $0.name == child.name }) else { continue }
            tables.append((schema.childTableName(child), child.columns, storedChild.columns))
        }
        var added: [String] = []
        var changed: [String] = []
        for (table, columns, storedColumns) in tables {
            let prefix = table == schema.name ? "" : "\(table)."
            for column in columns {
                guard let old = storedColumns.first(where: { $0.name == column.name }) else {
                    added.append("'\(prefix)\(column.name)' (\(column.type.rawValue))")
                    continue
                }
                if old.type != column.type {
                    changed.append(
                        "'\(prefix)\(column.name)' is \(old.type.rawValue) in the store and \(column.type.rawValue) now"
                    )
                }
            }
        }
        let newChildren = schema.children.filter { child in !stored.children.contains { $0.name == child.name } }
        added += newChildren.map { "'\(schema.childTableName($0))' (a list)" }
        if contract.typeChanges == .freeze, !changed.isEmpty {
            return
                "entity '\(schema.name)': column \(changed.joined(separator: ", column ")), a type change that the feed's schema contract forbids (type_changes: freeze); nothing was changed"
        }
        if contract.newColumns == .freeze, !added.isEmpty {
            return
                "entity '\(schema.name)': new column\(added.count == 1 ? "" : "s") \(added.joined(separator: ", ")) that the store's table lacks, which the feed's schema contract forbids (new_columns: freeze); nothing was changed"
        }
        return nil
    }
}
