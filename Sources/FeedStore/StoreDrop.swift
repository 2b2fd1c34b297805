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

extension Store {
    /// Drops `target` in one transaction (``StoreDrop``), and a dropped feed's credentials set
    /// aside (``StoreReading/credentialJournal``); returns what was removed.
    package func drop(_ target: DropTarget) async throws -> String {
        let dialect = self.dialect
        let dropped = try await writeSQL { try StoreDrop.drop(target, on: $0, dialect: dialect) }
        if case .feed(let feed) = target { try credentialJournal?.forgetAll(feed: feed) }
        return dropped
    }
}

/// Dropping an entity or a feed from a store, once for every driver, in one transaction: the
/// statements of `connection`, whose own edits drop a database's tables, columns and views.
package enum StoreDrop {
    /// Drops `target`.
    ///
    /// - Returns: what was removed, for the user.
    /// - Throws: ``StoreError`` when the store holds no such entity or feed, or another
    ///   entity's enforced relation points at the entity.
    package static func drop(_ target: DropTarget, on connection: any SQLConnection, dialect: any SQLDialect)
        throws -> String
    {
        switch target {
        case .entity(let name), .column(let name, _): try connection.lockChanges(of: name)
        case .feed: break
        }
        return switch target {
        case .entity(let name): try dropEntity(name, on: connection)
        case .feed(let name): try dropFeed(name, on: connection)
        case .column(let entity, let column): try dropColumn(column, of: entity, on: connection, dialect: dialect)
        }
    }

    private static func dropColumn(
        _ column: String, of entity: String, on connection: any SQLConnection, dialect: any SQLDialect
    ) throws -> String {
        let schemas = try connection.entitySchemas()
        guard let schema = schemas[entity] else { throw noEntity(entity, schemas: schemas, on: connection) }
        let retired = try connection.columnNames(of: entity, dialect: dialect).filter { name in
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
                path: connection.location, message: "cannot drop column '\(column)' of entity '\(entity)': \(reason)")
        }
        try EntityView.drop(of: entity, on: connection)
        try connection.dropColumn(column, of: entity)
        let marks = RetiredColumn.decode(try connection.retiredColumns(of: entity))
        if marks.contains(where: { $0.name == column }) {
            if let left = RetiredColumn.encode(marks.filter { $0.name != column }) {
                try connection.execute("UPDATE _entities SET retired = ? WHERE name = ?", [.text(left), .text(entity)])
            } else {
                try connection.execute("UPDATE _entities SET retired = NULL WHERE name = ?", [.text(entity)])
            }
        }
        try EntityView.ensure(schema, schemas: schemas, on: connection)
        return "dropped column '\(column)' of entity '\(entity)'"
    }

    /// The error for an entity the store does not hold, listing those it does.
    private static func noEntity(_ name: String, schemas: [String: EntitySchema], on connection: any SQLConnection)
        -> StoreError
    {
        let known = schemas.keys.sorted().joined(separator: ", ")
        return StoreError(
            path: connection.location,
            message: "no entity '\(name)' in the store" + (known.isEmpty ? "" : "; its entities: \(known)"))
    }

    private static func dropEntity(_ name: String, on connection: any SQLConnection) throws -> String {
        var schemas = try connection.entitySchemas()
        guard let schema = schemas.removeValue(forKey: name) else {
            throw noEntity(name, schemas: schemas, on: connection)
        }
        if let other = schemas.values.sorted(by: { $0.name < $1.name })
            .first(where: { $0.relations.contains { $0.enforced && $0.entity == name } })
        {
            throw StoreError(
                path: connection.location,
                message:
                    "entity '\(other.name)' has an enforced relation to '\(name)'; drop '\(other.name)' first; nothing was changed"
            )
        }
        let rows = try connection.integer("SELECT count(*) FROM \(SQLIdentifier.quoted(name))", [])
        // The views of entities labelled from this one read its table: written again without it.
        let labelled = schemas.values.sorted(by: { $0.name < $1.name })
            .filter { $0.relations.contains { $0.entity == name } }
        for other in labelled { try EntityView.drop(of: other.name, on: connection) }
        try EntityView.drop(of: name, on: connection)
        for child in schema.children { try connection.dropTable(schema.childTableName(child)) }
        try connection.dropTable(name)
        try connection.execute("DELETE FROM _entities WHERE name = ?", [.text(name)])
        try connection.execute("DELETE FROM _tombstones WHERE entity = ?", [.text(name)])
        for other in labelled { try EntityView.ensure(other, schemas: schemas, on: connection) }
        return "dropped entity '\(name)': its table (\(rows) row\(rows == 1 ? "" : "s"))"
            + (schema.children.isEmpty ? "" : ", \(schema.children.count) child table(s)") + " and view"
    }

    private static func dropFeed(_ name: String, on connection: any SQLConnection) throws -> String {
        let known = try connection.integer(
            """
            SELECT (SELECT count(*) FROM _runs WHERE feed = ?) + (SELECT count(*) FROM _state WHERE feed = ?)
                + (SELECT count(*) FROM _schedule WHERE feed = ?)
            """, [.text(name), .text(name), .text(name)])
        guard known > 0 else {
            throw StoreError(path: connection.location, message: "no feed '\(name)' in the store: it has never run")
        }
        var rows = 0
        for schema in try connection.entitySchemas().values.sorted(by: { $0.name < $1.name }) {
            for child in schema.children {
                try connection.execute(
                    "DELETE FROM \(SQLIdentifier.quoted(schema.childTableName(child))) WHERE _feed = ?", [.text(name)])
            }
            rows += try connection.execute(
                "DELETE FROM \(SQLIdentifier.quoted(schema.name)) WHERE _feed = ?", [.text(name)])
        }
        try connection.execute("DELETE FROM _tombstones WHERE feed = ?", [.text(name)])
        try connection.execute("DELETE FROM _state WHERE feed = ?", [.text(name)])
        try connection.execute(
            "DELETE FROM _http_cache_body WHERE key IN (SELECT key FROM _http_cache WHERE feed = ?)", [.text(name)])
        try connection.execute("DELETE FROM _http_cache WHERE feed = ?", [.text(name)])
        try connection.execute("DELETE FROM _schedule WHERE feed = ?", [.text(name)])
        try connection.execute("DELETE FROM _outbox WHERE feed = ?", [.text(name)])
        // Its media URLs; the images no other feed names go at the next `feedwork gc`.
        try connection.execute("DELETE FROM _media_urls WHERE feed = ?", [.text(name)])
        return "dropped feed '\(name)': \(rows) row\(rows == 1 ? "" : "s"), its state, cached responses and schedule"
    }
}
