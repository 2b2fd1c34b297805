import FeedStore
import Foundation
import GRDB

/// A GRDB connection as the store's jobs written once for every driver use it
/// (``SQLConnection``), each statement prepared once per connection (a pass may keep thousands
/// of rejects). A real (which those jobs never read) comes back as its text.
struct SQLiteSQLConnection: SQLConnection {
    let db: Database

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

extension SQLiteStore: SQLDatabase {
    package func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await read { try body(SQLiteSQLConnection(db: $0)) }
    }

    package func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await write { try body(SQLiteSQLConnection(db: $0)) }
    }

    /// Without the `BEGIN` and `COMMIT` that ``readSQL(_:)`` sends around the statement
    /// (``readOneStatement(_:)``).
    package func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        try await readOneStatement { try body(SQLiteSQLConnection(db: $0)) }
    }
}
