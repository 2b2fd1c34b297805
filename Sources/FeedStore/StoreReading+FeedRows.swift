import FeedKit

/// What feeds wrote, read with SQL that every store runs: rows for adapters and pricing
/// (``FeedKit/StoredRows``), and for fixture replays.
extension StoreReading {
    /// The rows of `entity` matching `filters`, through the export's query builder: names are
    /// checked against the stored schemas and every value is bound; none when the store holds
    /// no `entity`.
    package func rows(of entity: String, where filters: [String], order: [String], limit: Int?) async throws
        -> [[String: FieldValue]]
    {
        let schemas = try await schemas()
        guard schemas[entity] != nil else { return [] }
        let request = try ExportRequest.storedRows(of: entity, where: filters, order: order, limit: limit)
        let query = try ExportQuery.build(request, schemas: schemas, dialect: dialect)
        // A snapshot: on a server, the rows come through a cursor, which needs a transaction.
        return try await snapshotSQL { connection in
            var rows: [[String: FieldValue]] = []
            _ = try connection.forEachRow(query.sql, query.arguments, types: query.fields.map(\.type)) { values in
                var row: [String: FieldValue] = [:]
                for (field, value) in zip(query.fields, values) { row[field.name] = value }
                rows.append(row)
            }
            return rows
        }
    }

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
