import FeedKit

/// Writing and dropping `<entity>_view`, once for every driver, in the transaction under way:
/// a view is written only when its query changed, and never over a view or table Feedwork did
/// not write. How a database records that Feedwork wrote a view, and the statements that write
/// one, are its dialect's (``SQLDialect/viewMark``, ``SQLDialect/viewRecordSQL``,
/// ``SQLDialect/createView(_:as:)``): SQLite's `CREATE` text holds ``marker``, PostgreSQL's view
/// a comment.
extension EntityView {
    /// Writes the view of `schema` unless it is up to date or the user's; `schemas` are the
    /// store's entities, for relation labels.
    ///
    /// Passes of different processes may write one entity's view at once on a store they share:
    /// the writing is serialized by the entity's lock (``SQLConnection/lockChanges(of:)``), and
    /// what is there is read again once it is held; a view found up to date takes no lock, so
    /// readers are never held up by a pass whose schema did not change.
    ///
    /// - Throws: ``StoreError`` naming the entity and the view when a statement fails.
    package static func ensure(
        _ schema: EntitySchema, schemas: [String: EntitySchema], on connection: any SQLConnection
    ) throws {
        let view = name(schema.name)
        let dialect = connection.dialect
        try explaining(schema.name, view, on: connection) {
            let select = try select(schema, schemas: schemas, dialect: dialect) { table in
                try !connection.rows(dialect.tableExists, [.text(table)]).isEmpty
            }
            let written = dialect.createView(view, as: select)
            /// What holds the view's name now: `nil` when nothing does, else whether Feedwork
            /// wrote it and whether it is up to date.
            func existing() throws -> (ours: Bool, current: Bool)? {
                guard let found = try record(of: view, on: connection) else { return nil }
                return (found.ours, found.ours && found.record == written.record)
            }
            if let found = try existing(), !found.ours || found.current { return }
            try connection.lockChanges(of: schema.name)
            if let found = try existing() {
                guard found.ours, !found.current else { return }
                try connection.execute("DROP VIEW \(SQLIdentifier.quoted(view))", [])
            }
            for statement in written.statements { try connection.execute(statement, []) }
        }
    }

    /// Drops the view of `entity` when Feedwork wrote it; a view or table of the user's of that
    /// name is left alone.
    package static func drop(of entity: String, on connection: any SQLConnection) throws {
        let view = name(entity)
        try explaining(entity, view, on: connection) {
            guard try record(of: view, on: connection)?.ours == true else { return }
            try connection.execute("DROP VIEW \(SQLIdentifier.quoted(view))", [])
        }
    }

    /// What the database records of what holds the name `view`, and whether Feedwork wrote it
    /// (a view whose record holds the dialect's mark); `nil` when nothing holds the name.
    private static func record(of view: String, on connection: any SQLConnection) throws
        -> (ours: Bool, record: String?)?
    {
        guard let row = try connection.rows(connection.dialect.viewRecordSQL, [.text(view)]).first else { return nil }
        let record = row[1].text
        return (row[0].integer == 1 && record?.contains(connection.dialect.viewMark) == true, record)
    }

    /// Runs `body`, its failures naming the entity and its view.
    private static func explaining(
        _ entity: String, _ view: String, on connection: any SQLConnection, _ body: () throws -> Void
    ) throws {
        do {
            try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: connection.location, message: "entity '\(entity)' (view \(view)): \(error)")
        }
    }
}
