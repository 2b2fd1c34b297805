import FeedStore
import Foundation
import GRDB

/// `_media` and `_media_urls` on SQLite: the images are BLOBs in the store file. The operations
/// are ``MediaStore``'s; this supplies the statements.
extension SQLiteStore: MediaStore {
    package func readMedia<T: Sendable>(_ body: @escaping @Sendable (any MediaStatements) throws -> T)
        async throws -> T
    {
        try await read { db in try body(SQLiteMediaStatements(db: db)) }
    }

    package func writeMedia<T: Sendable>(_ body: @escaping @Sendable (any MediaStatements) throws -> T)
        async throws -> T
    {
        try await write { db in try body(SQLiteMediaStatements(db: db)) }
    }
}

/// Media statements on one of the SQLite store's connections.
struct SQLiteMediaStatements: MediaStatements {
    let db: Database

    func execute(_ sql: String, _ arguments: [MediaArgument]) throws {
        try db.execute(sql: sql, arguments: Self.arguments(arguments))
    }

    func rows(_ sql: String, _ arguments: [MediaArgument]) throws -> [[String?]] {
        try Row.fetchAll(db, sql: sql, arguments: Self.arguments(arguments)).map { row in
            row.databaseValues.map { value in
                switch value.storage {
                case .null, .blob: nil
                case .int64(let number): String(number)
                case .double(let number): String(number)
                case .string(let text): text
                }
            }
        }
    }

    func bytes(_ sql: String, _ arguments: [MediaArgument]) throws -> Data? {
        try Data.fetchOne(db, sql: sql, arguments: Self.arguments(arguments))
    }

    /// Timestamps are ISO 8601 text already.
    func timestamp(_ column: String) -> String { column }

    private static func arguments(_ arguments: [MediaArgument]) -> StatementArguments {
        StatementArguments(
            arguments.map { argument -> (any DatabaseValueConvertible)? in
                switch argument {
                case .text(let text): text
                case .integer(let number): number
                case .bytes(let data): data
                }
            })
    }
}
