import FeedKit

/// What `feedwork drop` removes from a store.
public enum DropTarget: Sendable, Hashable {
    /// An entity: its table, child tables, view, `_entities` row and tombstones.
    case entity(String)
    /// A feed: its rows in every entity (and their children), tombstones, state, cached
    /// responses, schedule and outbox. Its runs and rejects stay, as history.
    case feed(String)
    /// A column of an entity's table that its schema no longer declares (a retired field's),
    /// with its values and its mark in `_entities` (``RetiredColumn``).
    case column(entity: String, column: String)
}

/// What a driver supplies to ``StoreDrop``: SQL on one write transaction, not logic.
package protocol DropStatements {
    /// The store, for messages.
    var location: String { get }
    /// The schemas of the entities the store holds, by name.
    func schemas() throws -> [String: EntitySchema]
    /// Runs `sql`, written with `?` parameters bound to `arguments` in order; returns the
    /// number of rows it changed.
    @discardableResult func execute(_ sql: String, _ arguments: [String]) throws -> Int
    /// The first column of the first row of `sql` (`?` parameters), as an integer.
    func integer(_ sql: String, _ arguments: [String]) throws -> Int
    /// The columns of `entity` marked retired (`_entities.retired`, ``RetiredColumn``), as
    /// stored: `nil` when none.
    func retired(of entity: String) throws -> String?
    /// The names of the columns of `table`, in order.
    func columns(of table: String) throws -> [String]
    /// Drops `column` of `table`.
    func dropColumn(_ column: String, of table: String) throws
    /// Drops `table` when it is there.
    func dropTable(_ table: String) throws
    /// Drops the view of `entity` when Feedwork wrote it (a view of the user's is left alone).
    func dropView(of entity: String) throws
    /// Writes the view of `schema` (`schemas`: the store's entities, for relation labels).
    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws
}

/// Dropping an entity or a feed from a store, once for every driver, in one transaction.
package enum StoreDrop {
    /// Drops `target`.
    ///
    /// - Returns: what was removed, for the user.
    /// - Throws: ``StoreError`` when the store holds no such entity or feed, or another
    ///   entity's enforced relation points at the entity.
    package static func drop(_ target: DropTarget, on store: some DropStatements) throws -> String {
        switch target {
        case .entity(let name): try dropEntity(name, on: store)
        case .feed(let name): try dropFeed(name, on: store)
        case .column(let entity, let column): try dropColumn(column, of: entity, on: store)
        }
    }

    private static func dropColumn(_ column: String, of entity: String, on store: some DropStatements) throws
        -> String
    {
        let schemas = try store.schemas()
        guard let schema = schemas[entity] else { throw noEntity(entity, schemas: schemas, on: store) }
        let retired = try store.columns(of: entity).filter { name in
            !name.hasPrefix("_") && schema.columnIndex(name) == nil
        }
        guard retired.contains(column) else {
            let reason =
                schema.columnIndex(column) != nil
                ? "the config declares it: remove its field first, then drop it"
                : retired.isEmpty
                    ? "it has none that its fields no longer declare"
                    : "its columns that its fields no longer declare: \(retired.joined(separator: ", "))"
            throw StoreError(
                path: store.location, message: "cannot drop column '\(column)' of entity '\(entity)': \(reason)")
        }
        try store.dropView(of: entity)
        try store.dropColumn(column, of: entity)
        let marks = RetiredColumn.decode(try store.retired(of: entity))
        if marks.contains(where: { $0.name == column }) {
            if let left = RetiredColumn.encode(marks.filter { $0.name != column }) {
                try store.execute("UPDATE _entities SET retired = ? WHERE name = ?", [left, entity])
            } else {
                try store.execute("UPDATE _entities SET retired = NULL WHERE name = ?", [entity])
            }
        }
        try store.ensureView(schema, schemas: schemas)
        return "dropped column '\(column)' of entity '\(entity)'"
    }

    /// The error for an entity the store does not hold, listing those it does.
    private static func noEntity(_ name: String, schemas: [String: EntitySchema], on store: some DropStatements)
        -> StoreError
    {
        let known = schemas.keys.sorted().joined(separator: ", ")
        return StoreError(
            path: store.location,
            message: "no entity '\(name)' in the store" + (known.isEmpty ? "" : "; its entities: \(known)"))
    }

    private static func dropEntity(_ name: String, on store: some DropStatements) throws -> String {
        var schemas = try store.schemas()
        guard let schema = schemas.removeValue(forKey: name) else { throw noEntity(name, schemas: schemas, on: store) }
        if let other = schemas.values.sorted(by: { $0.name < $1.name })
            .first(where: { $0.relations.contains { $0.enforced && $0.entity == name } })
        {
            throw StoreError(
                path: store.location,
                message:
                    "entity '\(other.name)' has an enforced relation to '\(name)'; drop '\(other.name)' first; nothing was changed"
            )
        }
        let rows = try store.integer("SELECT count(*) FROM \(SQLIdentifier.quoted(name))", [])
        // The views of entities labelled from this one read its table: written again without it.
        let labelled = schemas.values.sorted(by: { $0.name < $1.name })
            .filter { $0.relations.contains { $0.entity == name } }
        for other in labelled { try store.dropView(of: other.name) }
        try store.dropView(of: name)
        for child in schema.children { try store.dropTable(schema.childTableName(child)) }
        try store.dropTable(name)
        try store.execute("DELETE FROM _entities WHERE name = ?", [name])
        try store.execute("DELETE FROM _tombstones WHERE entity = ?", [name])
        for other in labelled { try store.ensureView(other, schemas: schemas) }
        return "dropped entity '\(name)': its table (\(rows) row\(rows == 1 ? "" : "s"))"
            + (schema.children.isEmpty ? "" : ", \(schema.children.count) child table(s)") + " and view"
    }

    private static func dropFeed(_ name: String, on store: some DropStatements) throws -> String {
        let known = try store.integer(
            """
            SELECT (SELECT count(*) FROM _runs WHERE feed = ?) + (SELECT count(*) FROM _state WHERE feed = ?)
                + (SELECT count(*) FROM _schedule WHERE feed = ?)
            """, [name, name, name])
        guard known > 0 else {
            throw StoreError(path: store.location, message: "no feed '\(name)' in the store: it has never run")
        }
        var rows = 0
        for schema in try store.schemas().values.sorted(by: { $0.name < $1.name }) {
            for child in schema.children {
                try store.execute(
                    "DELETE FROM \(SQLIdentifier.quoted(schema.childTableName(child))) WHERE _feed = ?", [name])
            }
            rows += try store.execute("DELETE FROM \(SQLIdentifier.quoted(schema.name)) WHERE _feed = ?", [name])
        }
        try store.execute("DELETE FROM _tombstones WHERE feed = ?", [name])
        try store.execute("DELETE FROM _state WHERE feed = ?", [name])
        try store.execute(
            "DELETE FROM _http_cache_body WHERE key IN (SELECT key FROM _http_cache WHERE feed = ?)", [name])
        try store.execute("DELETE FROM _http_cache WHERE feed = ?", [name])
        try store.execute("DELETE FROM _schedule WHERE feed = ?", [name])
        try store.execute("DELETE FROM _outbox WHERE feed = ?", [name])
        // Its media URLs; the images no other feed names go at the next `feedwork gc`.
        try store.execute("DELETE FROM _media_urls WHERE feed = ?", [name])
        return "dropped feed '\(name)': \(rows) row\(rows == 1 ? "" : "s"), its state, cached responses and schedule"
    }
}
