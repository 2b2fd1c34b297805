import FeedKit
import Foundation

/// A value bound to a statement's parameter or read from a row, as the store's jobs written
/// once for every driver see it.
///
/// A PostgreSQL driver reads every value as text; ``integer`` reads an integer from either.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    /// A double, bound to a `real` column (``SQLEntityWriter``); a statement reading one back
    /// gets its text on SQLite and PostgreSQL alike.
    case real(Double)
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
        case .real(let value): String(value)
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
        case .real, .bytes: nil
        }
    }

    /// The value as bytes: text as its UTF-8 (SQLite may hold a text where a BLOB is expected);
    /// `nil` for NULL or an integer.
    package var data: Data? {
        switch self {
        case .null, .integer, .real: nil
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
    /// The rows `sql` returns with `arguments` (parameters written `$1`, `$2`...), each as column
    /// name to value, read by the type the database gives each column as the SQLite store holds
    /// a value: integers and booleans as ``FieldValue/integer(_:)`` (`1`/`0`), decimals as their
    /// exact text, timestamps as ISO 8601 text in UTC (whole seconds without a fraction, else
    /// milliseconds), JSON as compact text (PostgreSQL's `jsonb` keeps objects' keys in its own
    /// order).
    func namedRows(_ sql: String, _ arguments: [FieldValue]) throws -> [[String: FieldValue]]
    /// Runs `sql` with `arguments` and hands its rows to `body` one at a time, never collecting
    /// them (the same array, refilled), each column read as the SQLite store holds a value of
    /// its type in `types` (booleans as 1 and 0; decimals, times and JSON as text); returns the
    /// number of rows. On a server the rows come through a cursor, which needs the connection
    /// in a transaction (``StoreReading/snapshotSQL(_:)``'s).
    func forEachRow(
        _ sql: String, _ arguments: [FieldValue], types: [ColumnType], _ body: ([FieldValue]) throws -> Void
    ) throws -> Int

    // What ``SchemaPreparation`` and ``StoreDrop`` do that differs by database beyond its SQL.

    /// The store, for messages.
    var location: String { get }
    /// The SQL that differs from one database to the other, this connection's.
    var dialect: any SQLDialect { get }
    /// Takes the lock that serializes changes to the tables of `entity` until the transaction
    /// ends, where processes share the store and its transactions change tables at the same
    /// time; a database with one writer needs none.
    func lockChanges(of entity: String) throws
    /// Drops `column` of `table`.
    func dropColumn(_ column: String, of table: String) throws
    /// Drops `table` (and its full-text index) when it is there.
    func dropTable(_ table: String) throws
}
