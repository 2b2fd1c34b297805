/// One system table of a store (`_runs`, `_state`, ...) as Feedwork means it today, whichever
/// database holds it: its columns, primary key and indexes. ``SystemTables`` lists them; each
/// driver renders them with its dialect (``SystemTable/createStatements(in:)``) to create a new
/// store, and its migrations bring an older store to the same shape (a test compares both with
/// this description on each driver).
package struct SystemTable: Sendable {
    package var name: String
    package var columns: [SystemColumn]
    /// The primary key's columns; a ``SystemColumn/Kind/serial`` column is the key by itself.
    package var primaryKey: [String]
    package var indexes: [SystemIndex] = []
}

/// A column of a ``SystemTable``.
package struct SystemColumn: Sendable {
    /// What a column holds; each dialect names the type (``SQLDialect/systemType(_:)``).
    package enum Kind: Sendable, CaseIterable {
        /// A row id the database numbers, the table's primary key.
        case serial
        case text
        /// A 64-bit integer: counts, run ids, HTTP statuses, sizes.
        case integer
        case boolean
        /// A point in time: ISO 8601 UTC text on SQLite, `timestamptz` on PostgreSQL.
        case time
        /// A JSON document.
        case json
        /// Bytes.
        case bytes
    }

    package var name: String
    package var kind: Kind
    package var nullable = false
    /// The value a row gets when an insert leaves the column out: `0` (`false` for a boolean).
    package var defaultsToZero = false
}

/// A (non-unique) index of a ``SystemTable``; with a `condition`, of the rows that meet it only
/// (a partial index, which both databases have).
package struct SystemIndex: Sendable {
    package var name: String
    package var columns: [String]
    package var condition: String? = nil

    /// The statement that creates the index on `table`.
    package func createStatement(on table: String) -> String {
        "CREATE INDEX \(name) ON \(table)(\(columns.joined(separator: ", ")))"
            + (condition.map { " WHERE \($0)" } ?? "")
    }
}

extension SystemTable {
    /// The statements that create the table and its indexes in `dialect`. Names are left
    /// unqualified: the driver runs them in the store's schema (PostgreSQL's `search_path`).
    ///
    /// A single-column primary key is declared on its column, which has no `NOT NULL` (as the
    /// migrations that made the stores in use declared it).
    package func createStatements(in dialect: any SQLDialect) -> [String] {
        var lines = columns.map { column -> String in
            if column.kind == .serial { return "\(column.name) \(dialect.serialPrimaryKey)" }
            var line = "\(column.name) \(dialect.systemType(column.kind))"
            if primaryKey == [column.name] { return line + " PRIMARY KEY" }
            if !column.nullable { line += " NOT NULL" }
            if column.defaultsToZero { line += " DEFAULT \(dialect.zero(column.kind))" }
            return line
        }
        if primaryKey.count > 1 { lines.append("PRIMARY KEY (\(primaryKey.joined(separator: ", ")))") }
        let table = "CREATE TABLE \(name) (\n    \(lines.joined(separator: ",\n    "))\n)"
        return [table] + indexes.map { $0.createStatement(on: name) }
    }
}
