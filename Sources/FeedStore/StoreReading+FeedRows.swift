import FeedKit

/// What feeds wrote, read with SQL that every store runs, for fixture replays.
extension StoreReading {
    /// The rows that `feeds` wrote to `table` (`entity`'s table or one of its child tables),
    /// each as its values by column name; none when the store holds no `entity` yet.
    package func rows(of table: String, entity: String, columns: [String], feeds: [String]) async throws
        -> [[String: FieldValue]]
    {
        guard !feeds.isEmpty,
            try await !query("SELECT 1 FROM _entities WHERE name = $1", arguments: [.text(entity)]).isEmpty
        else { return [] }
        let selected = columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        return try await query(
            "SELECT \(selected) FROM \(SQLIdentifier.quoted(table)) WHERE _feed IN (\(Self.parameters(feeds.count)))",
            arguments: feeds.map(FieldValue.text))
    }

    /// The rejects that `feeds` kept, oldest first: `feed`, `entity`, `path`, `reason` and `raw`
    /// of each.
    package func rejects(of feeds: [String]) async throws -> [[String: FieldValue]] {
        guard !feeds.isEmpty else { return [] }
        return try await query(
            "SELECT feed, entity, path, reason, raw FROM _rejects WHERE feed IN (\(Self.parameters(feeds.count))) ORDER BY id",
            arguments: feeds.map(FieldValue.text))
    }

    /// `$1, $2, ...` up to `count`.
    private static func parameters(_ count: Int) -> String {
        (1...count).map { "$\($0)" }.joined(separator: ", ")
    }
}
