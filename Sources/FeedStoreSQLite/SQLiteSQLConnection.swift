import FeedKit
import FeedStore
import Foundation
import GRDB
import GRDBSQLite

/// A GRDB connection as the store's jobs written once for every driver use it
/// (``SQLConnection``), each statement prepared once per connection (a pass may keep thousands
/// of rejects). A real (which those jobs never read) comes back as its text.
struct SQLiteSQLConnection: SQLConnection {
    let db: Database
    /// The store's file, for messages.
    let location: String

    var dialect: any SQLDialect { SQLiteDialect() }

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

    /// Values as SQLite holds them: a BLOB as its UTF-8 text.
    func namedRows(_ sql: String, _ arguments: [FieldValue]) throws -> [[String: FieldValue]] {
        let values = arguments.map { value -> (any DatabaseValueConvertible)? in
            switch value {
            case .null: nil
            case .integer(let number): number
            case .real(let number): number
            case .text(let text): text
            case .bool(let flag): flag
            }
        }
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values)).map { row in
            var result: [String: FieldValue] = [:]
            for (name, value) in row {
                result[name] =
                    switch value.storage {
                    case .null: .null
                    case .int64(let number): .integer(number)
                    case .double(let number): .real(number)
                    case .string(let text): .text(text)
                    case .blob(let data): .text(String(decoding: data, as: UTF8.self))
                    }
            }
            return result
        }
    }

    /// None: SQLite has one writer, whose transaction holds the whole store.
    func lockChanges(of entity: String) throws {}

    /// Whether a row written in the transaction under way points at nothing through a foreign
    /// key (``PassDatabase/foreignKeysBroken``): SQLite counts the violations of deferred
    /// foreign keys as they happen, so asking costs nothing.
    func foreignKeysBroken() -> Bool {
        var pending: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_DEFERRED_FKS, &pending, &highest, 0)
        return pending > 0
    }

    func dropColumn(_ column: String, of table: String) throws {
        try db.execute(
            sql: "ALTER TABLE \(SQLIdentifier.quoted(table)) DROP COLUMN \(SQLIdentifier.quoted(column))")
    }

    /// With an entity's table goes its full-text index (``SearchIndex``), a table of its own.
    func dropTable(_ table: String) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(SQLIdentifier.quoted(table))")
        for statement in dialect.dropSearchIndex(of: table) { try db.execute(sql: statement) }
    }

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
                case .real(let real): real.databaseValue
                case .text(let text): text.databaseValue
                case .bytes(let data): data.databaseValue
                }
            })
    }
}

/// What is done to a store file outside any pass, for tests (`StoreFactory`'s maintenance).
extension SQLiteStore {
    /// Runs `sql` (one statement or several) in one transaction on the store file at `path`,
    /// outside any pass and on a connection of its own, waiting up to `wait` for the file's
    /// lock (a pass may still be closing the store): for tests that damage or age what a pass
    /// left. Nothing is checked or migrated first.
    ///
    /// - Throws: ``StoreError`` naming the file when a statement fails.
    package static func execute(_ sql: String, inStoreAt path: String, wait: FeedDuration) async throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(wait.seconds)
        do {
            try await DatabaseQueue(path: path, configuration: configuration).write { try $0.execute(sql: sql) }
        } catch {
            throw StoreError(sqlite: path, error)
        }
    }
}
