import FeedEngine

extension EntityPage {
    /// The name under which a keyset read selects an entity table's tie-breaker.
    static let tiebreakName = "_row"

    /// The page with the columns `/api/entities` lists: without `_row`, the tie-breaker a
    /// keyset read selects (SQLite's rowid, PostgreSQL's identity column), whose numbers differ
    /// between the stores and which the next page's cursor already carries. So the API gives
    /// the same columns and values on both stores.
    var tableColumns: EntityPage {
        guard let index = fields.firstIndex(where: { $0.name == Self.tiebreakName }) else { return self }
        var page = self
        page.fields.remove(at: index)
        page.rows = rows.map { row in
            var row = row
            if index < row.count { row.remove(at: index) }
            return row
        }
        return page
    }
}
