import FeedKit

/// What the store reads back of an entity's table or child table before changing it: its
/// columns (with their position in the primary key) and its foreign keys, through the dialect's
/// queries (``SQLDialect/storedColumnsSQL``, ``SQLDialect/foreignKeysSQL``).
package struct StoredTable: Sendable {
    /// A column as the database's catalog describes it.
    package struct Column: Sendable, Hashable {
        package var name: String
        /// The type as the catalog spells it (`INTEGER` on SQLite, `bigint` on PostgreSQL).
        package var type: String
        package var notNull: Bool
        /// Its place in the primary key, from 1; 0 when it is not part of it.
        package var keyPosition: Int
    }

    /// A foreign key with Feedwork's shape (``ForeignKey``), with the name the database gives it.
    package struct Reference: Sendable, Hashable {
        package var key: ForeignKey
        /// The constraint's name (PostgreSQL's), or its number (SQLite's).
        package var constraint: String
    }

    package var name: String
    /// In the table's order.
    package var columns: [Column]
    /// In declaration order; none unless read (``read(_:references:on:)``).
    package var references: [Reference]

    /// The primary key's columns in key order; none for a table without one.
    package var primaryKey: [String] {
        columns.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }.map(\.name)
    }

    /// The foreign keys, without their names.
    package var foreignKeys: [ForeignKey] { references.map(\.key) }

    /// `table` as the store holds it, with its foreign keys when `references`, or `nil` when
    /// there is no such table.
    package static func read(_ table: String, references: Bool = false, on connection: any SQLConnection) throws
        -> StoredTable?
    {
        let dialect = connection.dialect
        let columns = try connection.rows(dialect.storedColumnsSQL, [.text(table)]).map { row in
            Column(
                name: row[0].text ?? "", type: row[1].text ?? "", notNull: row[2].integer == 1,
                keyPosition: Int(row[3].integer ?? 0))
        }
        guard !columns.isEmpty else { return nil }
        return StoredTable(
            name: table, columns: columns, references: references ? try Self.references(of: table, on: connection) : [])
    }

    /// The foreign keys of `table` with Feedwork's shape; none when there is no such table.
    package static func references(of table: String, on connection: any SQLConnection) throws -> [Reference] {
        try connection.rows(connection.dialect.foreignKeysSQL, [.text(table)]).map { row in
            Reference(
                key: ForeignKey(entity: table, column: row[2].text ?? "", parent: row[1].text ?? ""),
                constraint: row[0].text ?? "")
        }
    }
}
