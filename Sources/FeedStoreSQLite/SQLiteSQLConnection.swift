import FeedKit
import FeedStore
import Foundation
import GRDB

/// A GRDB connection as the store's jobs written once for every driver use it
/// (``SQLConnection``), each statement prepared once per connection (a pass may keep thousands
/// of rejects). A real (which those jobs never read) comes back as its text. Its edits of entity
/// tables are ``SQLiteEntityTable``'s, ``SQLiteEntityView``'s and ``SQLiteSearchIndex``'s.
struct SQLiteSQLConnection: SQLConnection {
    let db: Database
    /// The store's file, for messages.
    let location: String

    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        // A cursor's row is read in place: each value is copied out once, not the row first.
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: Self.arguments(arguments))
        var rows: [[SQLValue]] = []
        while let row = try cursor.next() {
            rows.append(
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: .null
                    case .int64(let integer): .integer(integer)
                    case .double(let real): .text(String(real))
                    case .string(let text): .text(text)
                    case .blob(let data): .bytes(data)
                    }
                })
        }
        return rows
    }

    func bytes(_ sql: String, _ arguments: [SQLValue]) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: sql), arguments: Self.arguments(arguments))
    }

    func ensureTables(_ schema: EntitySchema, keyed: Bool) throws {
        try SQLiteEntityTable.ensure(schema, keyed: keyed, in: db, path: location)
    }

    /// A rebuild of the table, when the column's storage type changes (SQLite cannot alter a
    /// column); else the values are rewritten in place.
    func convert(
        _ column: String, of table: String, in schema: EntitySchema, to type: ColumnType, expression: String
    ) throws {
        try SQLiteEntityTable.convert(
            column, of: table, child: table != schema.name, to: type, expression: expression, in: db, path: location)
    }

    func setForeignKeys(_ schema: EntitySchema) throws {
        try SQLiteEntityTable.setForeignKeys(schema, in: db, path: location)
    }

    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws {
        try SQLiteEntityView.ensure(schema, schemas: schemas, in: db)
    }

    func ensureSearch(_ schema: EntitySchema) throws { try SQLiteSearchIndex.ensure(schema, in: db) }

    func dropColumn(_ column: String, of table: String) throws {
        try db.execute(
            sql: "ALTER TABLE \(SQLIdentifier.quoted(table)) DROP COLUMN \(SQLIdentifier.quoted(column))")
    }

    /// With an entity's table goes its full-text index (``SQLiteSearchIndex``), a table of its own.
    func dropTable(_ table: String) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(SQLIdentifier.quoted(table))")
        try SQLiteSearchIndex.drop(of: table, in: db)
    }

    func dropView(of entity: String) throws { try SQLiteEntityView.drop(of: entity, in: db) }

    /// Steps a statement of its own, read as SQLite holds each value (`types` need not be read).
    func forEachRow(
        _ sql: String, _ arguments: [FieldValue], types: [ColumnType], _ body: ([FieldValue]) throws -> Void
    ) throws -> Int {
        let statement = try SQLiteRawStatement(db, sql)
        defer { statement.reset() }
        for (index, argument) in arguments.enumerated() { statement.bind(argument, at: Int32(index + 1)) }
        let count = Int(statement.columnCount)
        var row = [FieldValue](repeating: .null, count: count)
        var rows = 0
        while try statement.step(db) {
            for column in 0..<count { row[column] = statement.value(column: Int32(column)) }
            try body(row)
            rows += 1
        }
        return rows
    }

    private static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(
            values.map { value -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let integer): integer.databaseValue
                case .text(let text): text.databaseValue
                case .bytes(let data): data.databaseValue
                }
            })
    }
}

/// The store's connections for the jobs written once (``StoreReading`` and ``StoreDriver``'s primitives).
extension SQLiteStore {
    package var dialect: any SQLDialect { SQLiteDialect() }

    /// One process holds the store: the board keeps this machine's time.
    package var capabilities: StoreCapabilities { StoreCapabilities(sharedByMachines: false) }

    package func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        let path = self.path
        return try await read { try body(SQLiteSQLConnection(db: $0, location: path)) }
    }

    package func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        let path = self.path
        return try await write { try body(SQLiteSQLConnection(db: $0, location: path)) }
    }

    /// Without the `BEGIN` and `COMMIT` that ``readSQL(_:)`` sends around the statement
    /// (``readOneStatement(_:)``).
    package func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        let path = self.path
        return try await readOneStatement { try body(SQLiteSQLConnection(db: $0, location: path)) }
    }

    /// Runs `body` in one read transaction (a snapshot: SQLite's write-ahead log keeps what it
    /// began with); errors of `body`'s own pass through unwrapped.
    package func snapshotSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T)
        async throws -> T
    {
        let path = path
        do {
            return try await pool.read { try body(SQLiteSQLConnection(db: $0, location: path)) }
        } catch let error as DatabaseError {
            throw StoreError(sqlite: path, error)
        }
    }
}
