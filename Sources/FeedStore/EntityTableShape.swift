import FeedKit

/// What an entity's table or child table must look like, beyond its columns: what the dialect's
/// statements that create or change it (``SQLDialect/createTable(_:columns:in:)``,
/// ``SQLDialect/reshape(_:to:in:)``) are given by ``EntityTable``.
package struct EntityTableShape: Sendable {
    /// An entity's own table, or one of its child tables (`<entity>__<list>`).
    package enum Kind: Sendable { case entity, child }

    package var name: String
    package var kind: Kind
    /// Whether the table has its primary key (``keyColumns``): false when a feed keeps the
    /// entity's history, whose keys repeat.
    package var keyed: Bool
    /// The foreign keys of an entity's table; none for a child table.
    package var foreignKeys: [ForeignKey] = []
    /// The key column of each parent whose foreign key the table gains, by parent entity: what
    /// the key references where the database compares keys by type (PostgreSQL; SQLite
    /// references `_key`).
    package var parentKeyColumns: [String: String] = [:]
    /// Columns whose type changes (``ColumnConversion``): each one's new type, and its value as
    /// an expression of the old table's columns.
    package var conversions: [String: (type: ColumnType, expression: String)] = [:]

    /// The primary key: `(_feed, _key)`, or `(_feed, _key, _position)` for a child table.
    package var keyColumns: [String] { kind == .entity ? ["_feed", "_key"] : ["_feed", "_key", "_position"] }
}

/// The statements that change a table, and those that run after them whether they succeeded or
/// not (SQLite's rebuild turns a connection setting on for its rename, and off again).
package struct TableChange: Sendable {
    package var statements: [String]
    package var cleanup: [String] = []

    package init(_ statements: [String], cleanup: [String] = []) {
        self.statements = statements
        self.cleanup = cleanup
    }
}
