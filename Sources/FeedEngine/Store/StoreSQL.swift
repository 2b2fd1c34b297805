import FeedKit

/// SQL on the tables of a store, for tools and tests that look inside it, from
/// ``FeedsConfig/storeSQL()``.
///
/// The statement is the database's own SQL; parameters are written `$1`, `$2`... (both
/// databases read them; SQLite binds them in order of first use). Values come back as the
/// SQLite store holds them, so one assertion fits both stores: integers and booleans as
/// ``FieldValue/integer(_:)`` (`1`/`0`), decimals as their exact text, timestamps as ISO 8601
/// text in UTC (whole seconds without a fraction, else milliseconds), JSON as compact text
/// (PostgreSQL's `jsonb` keeps objects' keys in its own order).
public protocol StoreSQL: Sendable {
    /// Runs `sql` with `arguments` bound to its parameters and returns each row as column name
    /// to value; an empty array for a statement that returns no rows.
    func query(_ sql: String, arguments: [FieldValue]) throws -> [[String: FieldValue]]
}
