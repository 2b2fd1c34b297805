import FeedKit
import FeedStore
import GRDB

/// `<entity>_view` on SQLite (``EntityView``): written in the pass's transaction, only when its
/// query changed, and never over a view or table Feedwork did not write.
enum SQLiteEntityView {
    /// Writes the view of `schema`, unless it is there as it would be written; `schemas` are the
    /// store's entities, for relation labels.
    static func ensure(_ schema: EntitySchema, schemas: [String: EntitySchema], in db: Database) throws {
        let view = EntityView.name(schema.name)
        let create =
            "CREATE VIEW \(SQLIdentifier.quoted(view)) AS \(EntityView.marker) "
            + (try EntityView.select(schema, schemas: schemas, dialect: SQLiteDialect()) { try db.tableExists($0) })
        if let existing = try Row.fetchOne(
            db, sql: "SELECT type, sql FROM sqlite_master WHERE name = ?", arguments: [view])
        {
            let type: String = existing["type"]
            let sql: String? = existing["sql"]
            guard type == "view", sql?.contains(EntityView.marker) == true else { return }
            // Written again unchanged, the view would still change the schema, and every
            // connection would prepare its statements again.
            guard sql != create else { return }
            try db.execute(sql: "DROP VIEW \(SQLIdentifier.quoted(view))")
        }
        try db.execute(sql: create)
    }

    /// Drops the view of `entity` when Feedwork wrote it; a view or table of the user's of
    /// that name is left alone.
    package static func drop(of entity: String, in db: Database) throws {
        let view = EntityView.name(entity)
        let sql = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", arguments: [view])
        guard sql?.contains(EntityView.marker) == true else { return }
        try db.execute(sql: "DROP VIEW \(SQLIdentifier.quoted(view))")
    }
}
