import FeedKit

/// An entity's table and its child tables, written once for every driver: created from the
/// schema, with the common columns (``EntityColumns``) before the schema's own, gaining the
/// columns the schema gains, keyed by `(_feed, _key)` (a child table by `(_feed, _key,
/// _position)`) unless a feed keeps the entity's history, whose keys repeat, and given the
/// foreign keys of the entity's enforced relations (``setForeignKeys(_:on:)``).
///
/// What differs by database is its dialect's: the column types, the statements that create a
/// table, and those that change its key, its foreign keys or a column's type
/// (``SQLDialect/reshape(_:to:in:)``): PostgreSQL alters the table in place, SQLite, which
/// cannot, rebuilds it.
package enum EntityTable {
    /// Creates the tables of `schema` when missing, adds the columns the schema gained since,
    /// and gives them their primary key or takes it away as `keyed` says. A table whose rows
    /// repeat a key keeps none.
    ///
    /// - Throws: ``StoreError`` naming the entity, table and column when a stored column's type
    ///   (or, where names ignore case, its spelling) differs from the schema's, or a statement
    ///   fails.
    package static func ensure(_ schema: EntitySchema, keyed: Bool = true, on connection: any SQLConnection) throws {
        let names = try TableNames(on: connection)
        try ensure(
            EntityTableShape(name: schema.name, kind: .entity, keyed: keyed), of: schema.name,
            columns: schema.columns, declaring: ForeignKey.declared(by: schema), names: names, on: connection)
        for child in schema.children {
            try ensure(
                EntityTableShape(name: schema.childTableName(child), kind: .child, keyed: keyed),
                of: schema.name, columns: child.columns, declaring: [], names: names, on: connection)
        }
    }

    private static func ensure(
        _ wanted: EntityTableShape, of entity: String, columns: [FeedKit.Column], declaring foreignKeys: [ForeignKey],
        names: TableNames, on connection: any SQLConnection
    ) throws {
        let dialect = connection.dialect
        let place = Place(entity: entity, table: wanted.name, location: connection.location)
        guard
            let stored = try place.explaining(
                "cannot read the table", { try StoredTable.read(wanted.name, on: connection) })
        else {
            var created = wanted
            created.foreignKeys = foreignKeys
            try place.run(
                dialect.createTable(created, columns: columns, in: names.namespace), doing: "cannot create the table",
                on: connection)
            if !wanted.keyed { try setLookupIndex(of: wanted, present: true, names: names, on: connection) }
            return
        }
        try addColumns(columns, to: stored, place: place, names: names, on: connection)
        let isKeyed = stored.primaryKey == wanted.keyColumns
        if wanted.keyed != isKeyed, try !(wanted.keyed && repeatsKeys(wanted, names: names, on: connection)) {
            // The table keeps its foreign keys.
            let stored = try place.explaining("cannot read the table's foreign keys") {
                try StoredTable.read(stored.name, references: true, on: connection) ?? stored
            }
            var shape = wanted
            shape.foreignKeys = stored.foreignKeys
            try change(stored, to: shape, place: place, names: names, on: connection)
        } else {
            try setLookupIndex(of: wanted, present: !isKeyed, names: names, on: connection)
        }
    }

    /// Adds the columns of `columns` that `stored` lacks; refuses one whose stored type differs.
    private static func addColumns(
        _ columns: [FeedKit.Column], to stored: StoredTable, place: Place, names: TableNames,
        on connection: any SQLConnection
    ) throws {
        let dialect = connection.dialect
        let ignoreCase = dialect.columnNamesIgnoreCase
        let storedColumns = Dictionary(
            stored.columns.map { (ignoreCase ? $0.name.lowercased() : $0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for column in columns {
            guard let existing = storedColumns[ignoreCase ? column.name.lowercased() : column.name] else {
                try place.run(
                    [
                        "ALTER TABLE \(names.table(stored.name)) ADD COLUMN \(SQLIdentifier.quoted(column.name)) "
                            + dialect.columnType(column.type)
                    ], doing: "cannot add column '\(column.name)'", on: connection)
                continue
            }
            guard existing.name == column.name else {
                throw StoreError(
                    path: connection.location,
                    message:
                        "column '\(column.name)' of '\(stored.name)' is spelt '\(existing.name)' in the store; "
                        + "its column names ignore case, so use '\(existing.name)' or another name")
            }
            guard existing.type.uppercased() == dialect.storedColumnType(column.type).uppercased() else {
                throw StoreError(
                    path: connection.location,
                    message:
                        "column '\(column.name)' of '\(stored.name)' is \(existing.type) in the store but "
                        + "\(column.type.rawValue) in the config; rename the column or use a new entity name")
            }
        }
    }

    /// Whether rows of the table repeat its primary key, so that it cannot have one.
    private static func repeatsKeys(_ shape: EntityTableShape, names: TableNames, on connection: any SQLConnection)
        throws -> Bool
    {
        let columns = shape.keyColumns.map(SQLIdentifier.quoted).joined(separator: ", ")
        return try !connection.rows(
            "SELECT 1 FROM \(names.table(shape.name)) GROUP BY \(columns) HAVING count(*) > 1 LIMIT 1", []
        ).isEmpty
    }

    /// Gives `stored` the key, foreign keys and column types of `shape`, with the dialect's
    /// statements (``SQLDialect/reshape(_:to:in:)``), and its indexes.
    ///
    /// - Throws: ``StoreError`` when the database rebuilds the table to change it and another
    ///   table's foreign key points at it: dropping it would count each row pointing at it as
    ///   pointing at nothing, and the commit would fail.
    static func change(
        _ stored: StoredTable, to shape: EntityTableShape, place: Place, names: TableNames,
        on connection: any SQLConnection
    ) throws {
        let dialect = connection.dialect
        if let pointing = dialect.tablesPointingSQL,
            let other = try connection.rows(pointing, [.text(stored.name)]).first?.first?.text
        {
            throw StoreError(
                path: connection.location,
                message:
                    "table '\(stored.name)' must be rebuilt to change its keys or a column's type, but the foreign key of '\(other)' points at it; nothing was changed"
            )
        }
        let change = dialect.reshape(stored, to: shape, in: names.namespace)
        defer { for statement in change.cleanup { _ = try? connection.execute(statement, []) } }
        try place.run(change.statements, doing: "cannot change the table", on: connection)
        // A rebuilt table lost its indexes.
        try setLookupIndex(of: shape, present: !shape.keyed, names: names, on: connection)
        for key in shape.foreignKeys { try setReferenceIndex(of: key, names: names, on: connection) }
    }

    /// Creates the index on `(_feed, _key)` that serves a table without its primary key, or
    /// drops it. Every write looks rows up by feed and key. `_run` (for exports of increments)
    /// is not indexed: a scan is cheap next to a second index on every insert.
    static func setLookupIndex(
        of shape: EntityTableShape, present: Bool, names: TableNames, on connection: any SQLConnection
    ) throws {
        let index = connection.dialect.lookupIndex(of: shape.name, child: shape.kind == .child)
        try connection.execute(
            present
                ? "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quoted(index)) ON \(names.table(shape.name)) (\"_feed\", \"_key\")"
                : "DROP INDEX IF EXISTS \(names.table(index))", [])
    }

    /// Creates the index on the child's `(_feed, <column>)` of `key`, or drops it.
    static func setReferenceIndex(
        of key: ForeignKey, present: Bool = true, names: TableNames, on connection: any SQLConnection
    ) throws {
        let index = "\(key.entity)_\(key.column)_ref"
        try connection.execute(
            present
                ? "CREATE INDEX IF NOT EXISTS \(SQLIdentifier.quoted(index)) ON \(names.table(key.entity)) "
                    + "(\"_feed\", \(SQLIdentifier.quoted(key.column)))"
                : "DROP INDEX IF EXISTS \(names.table(index))", [])
    }
}

extension EntityTable {
    /// The entity and table statements are about, for messages.
    struct Place {
        var entity: String
        var table: String
        var location: String

        /// Runs `statements`, a failure naming the entity, the table and what they do.
        func run(_ statements: [String], doing what: String, on connection: any SQLConnection) throws {
            for statement in statements {
                try explaining(what) { _ = try connection.execute(statement, []) }
            }
        }

        /// Runs `body`; a failure other than a ``StoreError`` reads "entity 'e' (table t): what:
        /// error".
        func explaining<T>(_ what: String, _ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as StoreError {
                throw error
            } catch let error as ForeignKeyViolation {
                throw error
            } catch {
                throw StoreError(path: location, message: "entity '\(entity)' (table \(table)): \(what): \(error)")
            }
        }
    }

    /// How the statements that change tables name them: qualified by the connection's schema
    /// where the database has schemas to search (``SQLDialect/namespaceSQL``).
    struct TableNames {
        var namespace: String?
        var dialect: any SQLDialect

        init(on connection: any SQLConnection) throws {
            dialect = connection.dialect
            namespace = try dialect.namespaceSQL.map { try connection.rows($0, []).first?.first?.text ?? "" }
        }

        /// `name` (a table's or an index's) as the statements that change or drop it write it.
        func table(_ name: String) -> String { dialect.qualified(name, in: namespace) }
    }
}
