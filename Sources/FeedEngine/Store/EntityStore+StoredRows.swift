import FeedKit
import GRDB

/// Rows for adapters and pricing, through the export's query builder: names are checked against
/// the stored schemas and every value is bound.
extension EntityStore: StoredRows {
    public func rows(of entity: String, where filters: [String], order: [String], limit: Int?) throws
        -> [[String: FieldValue]]
    {
        let schemas = try schemas()
        guard schemas[entity] != nil else { return [] }
        var request = ExportRequest(entity: entity)
        request.includeMeta = true
        request.filters = try filters.map { try ExportFilter(where: $0) }
        request.order = try order.flatMap { try OrderTerm.parseList($0) }
        request.limit = limit
        let query = try ExportQuery.build(request, schemas: schemas)
        return try self.query(query.sql, arguments: query.arguments)
    }
}
