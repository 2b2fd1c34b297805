import FeedKit

extension ExportRequest {
    /// The request behind ``FeedKit/StoredRows/rows(of:where:order:limit:)``: every column,
    /// `_` ones included, with `export --where` filters and `--order` terms.
    package static func storedRows(of entity: String, where filters: [String], order: [String], limit: Int?) throws
        -> ExportRequest
    {
        var request = ExportRequest(entity: entity)
        request.includeMeta = true
        request.filters = try filters.map { try ExportFilter(where: $0) }
        request.order = try order.flatMap { try OrderTerm.parseList($0) }
        request.limit = limit
        return request
    }
}
