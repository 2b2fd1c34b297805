import FeedKit
import FeedStore
import GRDB

/// Rows for adapters and pricing, through the export's query builder: names are checked against
/// the stored schemas and every value is bound.
extension SQLiteStore {
    public func rows(of entity: String, where filters: [String], order: [String], limit: Int?) async throws
        -> [[String: FieldValue]]
    {
        let schemas = try await schemas()
        guard schemas[entity] != nil else { return [] }
        let request = try ExportRequest.storedRows(of: entity, where: filters, order: order, limit: limit)
        let query = try ExportQuery.build(request, schemas: schemas, dialect: SQLiteDialect())
        return try await self.query(query.sql, arguments: query.arguments)
    }
}
