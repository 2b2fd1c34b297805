import FeedKit
import Foundation

/// The entities the store records in `_entities`, and what ``SchemaPreparation`` and
/// ``StoreDrop`` read of their tables: the same SQL on every database, with the pieces of its
/// ``SQLDialect`` where the text differs.
extension SQLConnection {
    /// The names of the entities the store holds.
    func entityNames() throws -> [String] {
        try rows("SELECT name FROM _entities", []).compactMap { $0.first?.text }
    }

    /// The schemas of the entities the store holds, by name, in the transaction under way when
    /// there is one (a schema's preparation or drop reads what it is about to change).
    package func entitySchemas() throws -> [String: EntitySchema] {
        var result: [String: EntitySchema] = [:]
        for row in try rows("SELECT name, CAST(schema AS TEXT) FROM _entities", []) {
            guard row.count == 2, let name = row[0].text else { continue }
            result[name] = try JSONDecoder().decode(EntitySchema.self, from: Data((row[1].text ?? "").utf8))
        }
        return result
    }

    /// Whether a feed keeps the history of `entity`; false for a new one.
    func keepsHistory(_ entity: String) throws -> Bool {
        let rows = try rows("SELECT CASE WHEN history THEN 1 ELSE 0 END FROM _entities WHERE name = ?", [.text(entity)])
        return rows.first?.first?.integer == 1
    }

    /// The columns of `entity` marked retired (``RetiredColumn``), as stored: `nil` when none.
    func retiredColumns(of entity: String) throws -> String? {
        try rows("SELECT CAST(retired AS TEXT) FROM _entities WHERE name = ?", [.text(entity)]).first?.first?.text
    }

    /// Records `schema` (encoded as `json`), whether its history is kept and its retired
    /// columns (`retired`: `nil` for none), leaving the row as it is when nothing changed, so
    /// that an unchanged pass writes nothing.
    func record(
        _ schema: EntitySchema, json: String, history: Bool, retired: String?, dialect: any SQLDialect
    ) throws {
        let distinct = dialect.distinct
        try execute(
            """
            INSERT INTO _entities(name, schema, history, retired) VALUES (?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET schema = excluded.schema, history = excluded.history,
                retired = excluded.retired
            WHERE _entities.schema \(distinct) excluded.schema OR _entities.history \(distinct) excluded.history
                OR _entities.retired \(distinct) excluded.retired
            """,
            [.text(schema.name), .text(json), .integer(history ? 1 : 0), SQLValue(retired)])
    }

    /// The values of `column` of the entity table `table` (or child table, `child`) that are
    /// not null, as text, with the feed and key of their rows (a child row's parent's), in the
    /// order the rows were written (a child's: the order of their key).
    func storedValues(of column: String, in table: String, child: Bool, dialect: any SQLDialect) throws
        -> [(feed: String, key: String, value: String)]
    {
        let quoted = SQLIdentifier.quoted(column)
        return try rows(
            """
            SELECT t._feed, t._key, CAST(t.\(quoted) AS TEXT) FROM \(SQLIdentifier.quoted(table)) AS t
            WHERE t.\(quoted) IS NOT NULL ORDER BY \(child ? dialect.childTiebreak : dialect.tiebreak)
            """, []
        ).map { row in (feed: row[0].text ?? "", key: row[1].text ?? "", value: row[2].text ?? "") }
    }

    /// The names of the columns of `table`, in order.
    func columnNames(of table: String, dialect: any SQLDialect) throws -> [String] {
        try rows(dialect.storedColumnsSQL, [.text(table)]).compactMap { $0.first?.text }
    }

    /// The first column of the first row of `sql`, as an integer (0 when none).
    func integer(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        Int(try rows(sql, arguments).first?.first?.integer ?? 0)
    }
}
