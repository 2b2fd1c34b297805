import FeedKit
import FeedStore
import Foundation

/// Reading entities back from PostgreSQL: rows through the export's query builder in
/// PostgreSQL's dialect.
extension PostgresStore {
    package func rows(of entity: String, where filters: [String], order: [String], limit: Int?) async throws
        -> [[String: FieldValue]]
    {
        let schemas = try await schemas()
        guard schemas[entity] != nil else { return [] }
        let request = try ExportRequest.storedRows(of: entity, where: filters, order: order, limit: limit)
        let query = try ExportQuery.build(request, schemas: schemas, dialect: PostgresDialect())
        return try await read { connection in
            let rows = try connection.execute(query.sql, query.arguments.map(PostgresCopyText.text))
            return (0..<rows.count).map { row in
                var values: [String: FieldValue] = [:]
                for (index, field) in query.fields.enumerated() {
                    values[field.name] = PostgresValue.field(rows[row, index], type: field.type)
                }
                return values
            }
        }
    }
}

/// Values read from PostgreSQL's text form back into Feedwork's ``FieldValue`` (they are sent
/// as ``PostgresCopyText`` gives them).
enum PostgresValue {
    /// A column's text read back as the value SQLite would give for a column of `type`:
    /// booleans as 1 and 0, exact decimals, timestamps (selected as ISO 8601) and JSON as text.
    static func field(_ text: String?, type: ColumnType) -> FieldValue {
        guard let text else { return .null }
        switch type {
        case .integer: return Int64(text).map(FieldValue.integer) ?? .text(text)
        case .real: return Double(text).map(FieldValue.real) ?? .text(text)
        case .boolean: return .integer(text == "t" ? 1 : 0)
        case .text, .decimal, .timestamp, .date, .json: return .text(text)
        }
    }
}
