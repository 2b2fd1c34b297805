import FeedStore

/// One system table as a database reports it, and what ``SystemTables`` says each driver must
/// report: the drivers' tests read their new and migrated stores into shapes and compare.
package struct SystemTableShape: Equatable, CustomStringConvertible {
    /// Name, the type the database reports, whether it refuses null (or is a key) and its default.
    package var columns: [String]
    package var primaryKey: [String]
    /// Index name: its columns, then `where <condition>` for a partial index.
    package var indexes: [String: [String]]

    package init(columns: [String], primaryKey: [String], indexes: [String: [String]]) {
        self.columns = columns
        self.primaryKey = primaryKey
        self.indexes = indexes
    }

    package var description: String {
        "columns \(columns), key \(primaryKey), indexes \(indexes.sorted { $0.key < $1.key })"
    }

    /// What a driver must report of every table of ``SystemTables/all``, by name, given the
    /// names the database reports for each kind of column, how it writes a zero default of a
    /// boolean (`0` or `false`) and the default it reports for a serial column when that is not
    /// the one of any other column (PostgreSQL's sequence, read as `serial`).
    package static func expected(
        types: [SystemColumn.Kind: String], booleanZero: String, serialDefault: String? = nil
    ) -> [String: SystemTableShape] {
        var result: [String: SystemTableShape] = [:]
        for table in SystemTables.all {
            let columns = table.columns.map { column -> String in
                let usual = column.defaultsToZero ? (column.kind == .boolean ? booleanZero : "0") : "none"
                let value = column.kind == .serial ? serialDefault ?? usual : usual
                let null = column.nullable ? "null" : "not null"
                return "\(column.name) \(types[column.kind] ?? "?") \(null) default \(value)"
            }
            result[table.name] = SystemTableShape(
                columns: columns, primaryKey: table.primaryKey,
                indexes: Dictionary(
                    uniqueKeysWithValues: table.indexes.map {
                        ($0.name, $0.columns + ($0.condition.map { ["where \($0)"] } ?? []))
                    }))
        }
        return result
    }
}
