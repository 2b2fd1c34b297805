import FeedKit
import FeedStore

/// `<entity>_view` on PostgreSQL: the SQLite store's view (``EntityView``), with the same
/// columns from the same query in PostgreSQL's dialect, in the store's schema.
///
/// Decimals are `numeric` already, so they are not cast; a money amount is an exact `numeric`
/// (`price` 249, `price_amount` 2.49, `price_currency` GBP); a relation's label is joined.
///
/// Views are written when a pass starts (and when an adapter declares an entity during its
/// pass), like on SQLite. A view Feedwork wrote carries a comment (`COMMENT ON VIEW`) that
/// begins with ``marker`` and ends with the view's query: a view whose comment is exactly the
/// one it would write is left as it is (no lock is taken on it, so readers are never held up
/// by a pass whose schema did not change), one with another Feedwork comment is dropped and
/// written again, and a view or table of that name without one is the user's and left alone.
///
/// Passes of different processes may write one entity's view at once: the writing is
/// serialized by a transaction-level advisory lock on the entity
/// (``PostgresSQL/entityChangeLockSQL``), and what is there is read again once it is held. The
/// lock lasts until the transaction ends, the pass's.
enum PostgresEntityView {
    /// The start of the comment of every view Feedwork writes; the view's query follows it.
    static let marker =
        "Written by Feedwork at the start of each pass; a view of this name without this comment is left alone. Query: "

    /// Writes the view of `schema` unless it is up to date or the user's; `schemas` are the
    /// store's entities, for relation labels.
    ///
    /// - Throws: ``PostgresEntityError`` naming the entity and the view when the server refuses
    ///   a statement.
    static func ensure(_ schema: EntitySchema, schemas: [String: EntitySchema], in connection: PostgresConnection)
        throws(PostgresEntityError)
    {
        let view = EntityView.name(schema.name)
        func run(_ sql: String, _ parameters: [String?] = [], _ what: String) throws(PostgresEntityError)
            -> PostgresRows
        {
            do {
                return try connection.execute(sql, parameters)
            } catch {
                throw .server(error, entity: schema.name, table: view, doing: what)
            }
        }
        let select = try EntityView.select(schema, schemas: schemas, dialect: PostgresDialect()) {
            (table) throws(PostgresEntityError) -> Bool in
            let found = try run(
                "SELECT to_regclass($1) IS NOT NULL", [PostgresSQL.identifier(table)],
                "cannot tell whether table '\(table)' exists")
            return found.first(column: 0) == "t"
        }
        let comment = marker + select
        /// What holds the view's name now: `nil` when nothing does, else whether Feedwork wrote
        /// it and whether it is up to date.
        func existing() throws(PostgresEntityError) -> (ours: Bool, current: Bool)? {
            let rows = try run(
                """
                SELECT c.relkind::text, obj_description(c.oid, 'pg_class') FROM pg_class AS c
                WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace
                """, [view], "cannot read what holds the view's name")
            guard rows.count > 0 else { return nil }
            let ours = rows[0, 0] == "v" && rows[0, 1]?.hasPrefix(marker) == true
            return (ours, ours && rows[0, 1] == comment)
        }
        if let found = try existing(), !found.ours || found.current { return }
        // The entity's lock, the one that serializes creating its tables (a pass that prepared
        // them holds it already).
        _ = try run(PostgresSQL.entityChangeLockSQL, [schema.name], "cannot take the lock on the entity's view")
        let namespace =
            try run(PostgresSQL.currentSchemaSQL, [], "cannot read the store's schema").first(column: 0) ?? ""
        let qualified = PostgresSQL.qualified(view, in: namespace)
        if let found = try existing() {
            guard found.ours, !found.current else { return }
            _ = try run("DROP VIEW \(qualified)", [], "cannot drop the view to write it again")
        }
        _ = try run("CREATE VIEW \(qualified) AS \(select)", [], "cannot create the view")
        _ = try run(
            "COMMENT ON VIEW \(qualified) IS \(literal(comment))", [],
            "cannot mark the view as Feedwork's")
    }

    /// Drops the view of `entity` when Feedwork wrote it (its comment begins with ``marker``);
    /// a view or table of the user's of that name is left alone.
    package static func drop(of entity: String, in connection: PostgresConnection) throws(PostgresEntityError) {
        let view = EntityView.name(entity)
        func run(_ sql: String, _ parameters: [String?] = [], _ what: String) throws(PostgresEntityError)
            -> PostgresRows
        {
            do {
                return try connection.execute(sql, parameters)
            } catch {
                throw .server(error, entity: entity, table: view, doing: what)
            }
        }
        let comment = try run(
            """
            SELECT obj_description(c.oid, 'pg_class') FROM pg_class AS c
            WHERE c.relname = $1 AND c.relkind = 'v' AND c.relnamespace = current_schema()::regnamespace
            """, [view], "cannot read the entity's view")
        guard comment.count > 0, comment[0, 0]?.hasPrefix(marker) == true else { return }
        let namespace =
            try run(PostgresSQL.currentSchemaSQL, [], "cannot read the store's schema").first(column: 0) ?? ""
        _ = try run("DROP VIEW \(PostgresSQL.qualified(view, in: namespace))", [], "cannot drop the view")
    }

    /// `text` as an escape string literal (`COMMENT ON` takes no parameters), which reads the
    /// same whatever the server's `standard_conforming_strings`.
    private static func literal(_ text: String) -> String {
        "E'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
