import FeedKit
import FeedStore

/// Changing the type of an entity table's column in place (``ColumnConversion``).
extension PostgresEntityTable {
    /// Gives `column` of `table` the PostgreSQL type of `type` with `ALTER COLUMN ... TYPE ...
    /// USING expression`; the entity's view, which PostgreSQL would not let the column change
    /// under, was dropped first (``PostgresSQLConnection/convert(_:of:in:to:expression:)``).
    ///
    /// - Throws: ``PostgresEntityError`` naming the entity and column when the server refuses
    ///   (a view of the user's reads the column, say).
    static func convert(
        _ column: String, of table: String, to type: ColumnType, expression: String,
        in connection: PostgresConnection
    ) throws(PostgresEntityError) {
        do {
            let namespace = try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? ""
            try connection.execute(
                "ALTER TABLE \(PostgresSQL.qualified(table, in: namespace)) ALTER COLUMN "
                    + "\(PostgresSQL.identifier(column)) TYPE \(sqlType(type)) USING \(expression)")
        } catch {
            throw PostgresEntityError(
                entity: table, table: table, column: column,
                message: "cannot change the column's type to \(sqlType(type))", underlying: error)
        }
    }
}
