/// Rows that point at nothing through an enforced relation, looked for once for every driver:
/// when a pass's deferred checks would fail at its commit, and before a relation of rows
/// already stored becomes a foreign key.
extension ForeignKey {
    /// The first row (by key) of this relation's child, of `feed` or of any feed, that points
    /// at no parent row, with the number of such rows when `feed` is `nil`; `nil` when every
    /// row points at one. The child's value is compared as text with the parent's `_key`, the
    /// text of its key column on both stores.
    package func firstDangling(feed: String? = nil, on connection: any SQLConnection) throws -> ForeignKeyViolation? {
        let quoted = SQLIdentifier.quoted
        let value = "CAST(c.\(quoted(column)) AS \(connection.dialect.systemType(.text)))"
        let rows = try connection.rows(
            """
            SELECT c._feed, c._key, \(value), count(*) OVER () FROM \(quoted(entity)) AS c
            WHERE c.\(quoted(column)) IS NOT NULL\(feed == nil ? "" : " AND c._feed = ?")
                AND NOT EXISTS (SELECT 1 FROM \(quoted(parent)) AS p WHERE p._feed = c._feed AND p._key = \(value))
            ORDER BY c._key LIMIT 1
            """, feed.map { [.text($0)] } ?? [])
        guard let row = rows.first else { return nil }
        return ForeignKeyViolation(
            key: self, feed: row[0].text ?? "", rowKey: row[1].text ?? "", value: row[2].text ?? "",
            count: feed == nil ? row[3].integer.map(Int.init) : nil)
    }

    /// Why the pass of `feed`, which wrote `entities`, cannot commit, once its database said
    /// that a row it wrote points at nothing (``PassDatabase/foreignKeysBroken``): the first such
    /// row of the first relation (by name) of those entities, or the database's word alone.
    package static func violation(ofPass feed: String, entities: Set<String>, on connection: any SQLConnection)
        throws -> any Error
    {
        let keys = try connection.entitySchemas().values.flatMap(declared(by:)).sorted { $0.name < $1.name }
        for key in keys where entities.contains(key.entity) || entities.contains(key.parent) {
            if let violation = try key.firstDangling(feed: feed, on: connection) { return violation }
        }
        return StoreError(
            path: connection.location,
            message: "feed '\(feed)': the pass would leave rows pointing at nothing; nothing was changed")
    }
}
