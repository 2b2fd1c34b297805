import FeedStore
import Foundation

/// `_media` and `_media_urls` on PostgreSQL: the images are `bytea`, so every machine sharing
/// the server sees them. The operations are ``MediaStore``'s; this supplies the statements.
extension PostgresStore: MediaStore {
    package func readMedia<T: Sendable>(_ body: @escaping @Sendable (any MediaStatements) throws -> T)
        async throws -> T
    {
        try await read { connection in try body(PostgresMediaStatements(connection: connection)) }
    }

    package func writeMedia<T: Sendable>(_ body: @escaping @Sendable (any MediaStatements) throws -> T)
        async throws -> T
    {
        try await write { connection in try body(PostgresMediaStatements(connection: connection)) }
    }
}

/// Media statements on one of the PostgreSQL store's connections: every value travels as
/// text, bytes in `bytea`'s hex form.
struct PostgresMediaStatements: MediaStatements {
    let connection: PostgresConnection

    func execute(_ sql: String, _ arguments: [MediaArgument]) throws {
        try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments))
    }

    func rows(_ sql: String, _ arguments: [MediaArgument]) throws -> [[String?]] {
        let rows = try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments))
        let columns = rows.columns.count
        return (0..<rows.count).map { row in (0..<columns).map { rows[row, $0] } }
    }

    func bytes(_ sql: String, _ arguments: [MediaArgument]) throws -> Data? {
        let rows = try connection.execute(PostgresDialect().numbered(sql), Self.parameters(arguments))
        return rows.count > 0 ? rows[0, 0].flatMap(Hex.bytea) : nil
    }

    func timestamp(_ column: String) -> String { PostgresSQL.isoText(column) }

    private static func parameters(_ arguments: [MediaArgument]) -> [String?] {
        arguments.map { argument in
            switch argument {
            case .text(let text): text
            case .integer(let number): number.map(String.init)
            case .bytes(let data): Hex.bytea(data)
            }
        }
    }
}
