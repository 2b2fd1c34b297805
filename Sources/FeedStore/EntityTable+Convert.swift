import FeedKit

/// Changing the type of an entity table's column in place (``ColumnConversion``).
extension EntityTable {
    /// Gives `column` of `table` (the table of `schema` as the store has it, or one of its child
    /// tables) the type of `type`, each value becoming `expression`, its key, foreign keys and
    /// indexes kept. Nothing changes when the stored type stays (SQLite's text to decimal,
    /// boolean to integer: it holds the values as the new type has them already).
    ///
    /// The entity's view is dropped first (PostgreSQL would not let the column change under
    /// it); ``EntityView/ensure(_:schemas:on:)`` writes it again.
    ///
    /// - Throws: ``StoreError`` naming the entity and table when the database refuses (a view
    ///   of the user's reads the column, say), or when the database rebuilds the table to change
    ///   it and another table's foreign key points at it.
    package static func convert(
        _ column: String, of table: String, in schema: EntitySchema, to type: ColumnType, expression: String,
        on connection: any SQLConnection
    ) throws {
        let dialect = connection.dialect
        let place = Place(entity: schema.name, table: table, location: connection.location)
        guard
            let stored = try place.explaining(
                "cannot read the table", { try StoredTable.read(table, references: true, on: connection) }),
            let current = stored.columns.first(where: { $0.name == column }),
            current.type.uppercased() != dialect.storedColumnType(type).uppercased()
        else { return }
        try EntityView.drop(of: schema.name, on: connection)
        let names = try TableNames(on: connection)
        let kind: EntityTableShape.Kind = table == schema.name ? .entity : .child
        var shape = EntityTableShape(name: table, kind: kind, keyed: false, foreignKeys: stored.foreignKeys)
        shape.keyed = stored.primaryKey == shape.keyColumns
        shape.conversions = [column: (type, expression)]
        try change(stored, to: shape, place: place, names: names, on: connection)
    }
}
