import Foundation

/// A value bound to a statement's parameter or read from a row, as the store's jobs written
/// once for every driver see it.
///
/// A PostgreSQL driver reads every value as text; ``integer`` reads an integer from either.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    /// Bytes: a BLOB on SQLite, `bytea` on PostgreSQL, as ``SQLConnection/rows(_:_:)`` and
    /// ``SQLConnection/bytes(_:_:)`` read them.
    case bytes(Data)

    /// `value` as text, or NULL for `nil`.
    package init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }

    /// `value` as an integer, or NULL for `nil`.
    package init(_ value: (some BinaryInteger)?) { self = value.map { .integer(Int64($0)) } ?? .null }

    /// The value as text: an integer's digits; `nil` for NULL.
    package var text: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .text(let value): value
        case .bytes(let value): String(decoding: value, as: UTF8.self)
        }
    }

    /// The value as an integer: text that is one is read; `nil` for NULL or other text.
    package var integer: Int64? {
        switch self {
        case .null: nil
        case .integer(let value): value
        case .text(let value): Int64(value)
        case .bytes: nil
        }
    }

    /// The value as bytes: text as its UTF-8 (SQLite may hold a text where a BLOB is expected);
    /// `nil` for NULL or an integer.
    package var data: Data? {
        switch self {
        case .null, .integer: nil
        case .text(let value): Data(value.utf8)
        case .bytes(let value): value
        }
    }
}

/// The statements of one connection, in the transaction or snapshot it is in: the primitive
/// that the store's jobs written once for every driver use (with its ``SQLDialect`` for the SQL
/// that differs). Parameters are written `?` and bound in order.
package protocol SQLConnection {
    /// Runs `sql` with `arguments`; the number of rows it changed.
    @discardableResult func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int
    /// The rows `sql` returns with `arguments`, each a value per column.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]]
    /// The bytes in the first column of the first row of `sql`, or `nil` when it has no row.
    func bytes(_ sql: String, _ arguments: [SQLValue]) throws -> Data?
}

/// A store's connections for the jobs written once for every driver: reads on a consistent
/// snapshot, writes each in a transaction of its own, both off Swift's cooperative pool.
package protocol SQLDatabase: Sendable {
    /// The SQL that differs from one database to the other.
    var dialect: any SQLDialect { get }
    /// Runs `body` on a read connection.
    func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Runs `body` in a write transaction of its own, committed when it returns.
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
    /// Runs `body`, which runs one statement, on a read connection: the statement reads a
    /// snapshot of its own, so a driver may leave out the transaction ``readSQL(_:)`` opens
    /// around it (a read that runs once per page of a pass).
    func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T
}

extension SQLDatabase {
    /// ``readSQL(_:)``, for a driver whose reads open no transaction of their own.
    package func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        try await readSQL(body)
    }
}
