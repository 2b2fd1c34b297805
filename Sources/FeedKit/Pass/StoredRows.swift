/// Read access to the rows a store holds, without SQL: what pricing and rules such as "never
/// offer the same destination twice" need.
///
/// The engine's store implements it (its reads run on the store's own threads, so awaiting one
/// never blocks Swift's cooperative pool); ``FeedPass/storedRows(of:where:order:limit:)`` reads
/// through it during a pass.
public protocol StoredRows: Sendable {
    /// Rows of `entity` that match every filter, in `order`, at most `limit`.
    ///
    /// - Parameters:
    ///   - entity: the entity's name, as in its ``EntitySchema/name``.
    ///   - filters: `feedwork export --where` conditions (`field=value`, `!=`, `<`, `<=`, `>`,
    ///     `>=`, `~` for contains), values converted to the column's type and bound.
    ///   - order: field names, `-name` for descending; system columns (`_feed`, `_first_seen`)
    ///     may be named.
    ///   - limit: the most rows to return; `nil` for all.
    /// - Returns: each row's fields by name; no rows when the store holds no such entity.
    /// - Throws: when a filter or order names no field of the entity, or the store cannot be read.
    func rows(of entity: String, where filters: [String], order: [String], limit: Int?) async throws
        -> [[String: FieldValue]]
}
