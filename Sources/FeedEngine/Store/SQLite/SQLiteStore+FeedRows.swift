import FeedKit
import GRDB

extension SQLiteStore {
    /// The rows that `feeds` wrote to `table` (an entity or a child table), each as its values
    /// by column name; none when the table does not exist yet.
    package func rows(of table: String, columns: [String], feeds: [String]) throws -> [[String: FieldValue]] {
        guard !feeds.isEmpty, try read({ try $0.tableExists(table) }) else { return [] }
        let selected = columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: feeds.count).joined(separator: ", ")
        return try query(
            "SELECT \(selected) FROM \(SQLIdentifier.quoted(table)) WHERE _feed IN (\(placeholders))",
            arguments: feeds.map(FieldValue.text))
    }

    /// The rejects that `feeds` kept, oldest first: `feed`, `entity`, `path`, `reason` and `raw`
    /// of each.
    package func rejects(of feeds: [String]) throws -> [[String: FieldValue]] {
        guard !feeds.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: feeds.count).joined(separator: ", ")
        return try query(
            "SELECT feed, entity, path, reason, raw FROM _rejects WHERE feed IN (\(placeholders)) ORDER BY id",
            arguments: feeds.map(FieldValue.text))
    }
}
