import Foundation

/// A value bound to a parameter of a media statement (``MediaStatements``).
package enum MediaArgument: Sendable {
    /// Text, or `NULL`.
    case text(String?)
    /// An integer, or `NULL`.
    case integer(Int?)
    /// Bytes: a BLOB on SQLite, `bytea` on PostgreSQL.
    case bytes(Data)
}

/// What a driver supplies to ``MediaStore``'s operations: statements on one of its
/// connections, written with `?` parameters bound to the arguments in order.
package protocol MediaStatements {
    /// Runs `sql`.
    func execute(_ sql: String, _ arguments: [MediaArgument]) throws
    /// The rows of `sql`, each column as text (integers in decimal), `nil` for `NULL`.
    func rows(_ sql: String, _ arguments: [MediaArgument]) throws -> [[String?]]
    /// The bytes in the first column of the first row of `sql`, or `nil` when it has no row.
    func bytes(_ sql: String, _ arguments: [MediaArgument]) throws -> Data?
    /// The SQL that selects the timestamp `column` as the store's ISO 8601 text.
    func timestamp(_ column: String) -> String
}
