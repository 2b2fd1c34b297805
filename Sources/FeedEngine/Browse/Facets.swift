import FeedKit
import FeedStore

/// The counts of the few values a column takes, among the rows a view selects: a category,
/// a state, a kind. Columns qualify when the first rows show few distinct values, each twice
/// on average (a column of identifiers that is mostly empty is no facet).
public struct Facet: Sendable, Hashable {
    public struct Count: Sendable, Hashable {
        public var value: FieldValue
        /// A related entity's label for the value (`category_id` 12 is "Maison"), or `yes` and
        /// `no` for a boolean, when known.
        public var label: String?
        public var rows: Int
    }

    public var field: String
    /// The most frequent values first, at most ``StoreBrowser/facetValues``.
    public var counts: [Count]
    /// Whether the counts are of a sample (the first ``StoreBrowser/facetSample`` rows of the
    /// view), not of all of it.
    public var sampled: Bool
}

extension StoreBrowser {
    /// The most values a facet lists; a column with more in its first rows is no facet.
    public static let facetValues = 12
    /// The rows of a view that facets count at most, so that counting stays quick at any size.
    public static let facetSample = 100_000

    /// The facets of the view `request` selects (its feeds and filters).
    ///
    /// - Throws: a usage ``ExportError`` as ``page(_:limit:)`` does.
    public func facets(_ request: ExportRequest) async throws -> [Facet] {
        let schemas = try await exporter.storedSchemas()
        let first = try await page(request, limit: Self.maximumPageSize)
        let candidates = first.fields.filter { field in
            !field.isMeta && [.text, .boolean, .integer].contains(field.type)
        }.filter { field in
            let column = first.rows.map { first.value(field.name, in: $0) }
            let values = Set(column)
            let present = column.filter { $0 != .null }
            // Each value shown at least twice on average: a column of mostly distinct values
            // (names, prices as text, identifiers) would list each row once.
            let repeats = present.count >= 2 * Set(present).count
            let isRelation = first.table.relations.contains { $0.column == field.name }
            return values.count > 1 && values.count <= Self.facetValues
                && (field.type != .integer || isRelation) && repeats
        }
        var facets: [Facet] = []
        for field in candidates {
            var view = request
            view.columns = [field.name]
            view.includeMeta = false
            view.keyset = Keyset()
            view.limit = Self.facetSample
            let inner = try await exporter.query(for: view)
            let column = SQLIdentifier.quoted(field.name)
            let rows = try await query(
                "SELECT s.\(column) AS value, count(*) AS n FROM (\(inner.sql)) AS s GROUP BY s.\(column)"
                    + " ORDER BY n DESC, value LIMIT \(Self.facetValues)", inner.arguments)
            let total = rows.reduce(0) { $0 + Int(integer($1["n"])) }
            var counts = rows.map { Facet.Count(value: $0["value"] ?? .null, label: nil, rows: Int(integer($0["n"]))) }
            if let relation = first.table.relations.first(where: { $0.column == field.name }),
                let related = schemas[relation.entity]
            {
                counts = try await labelled(counts, relation: relation, related: related)
            } else if field.type == .boolean {
                counts = counts.map { count in
                    var count = count
                    switch count.value {
                    case .integer(let flag): count.label = flag == 0 ? "no" : "yes"
                    case .bool(let flag): count.label = flag ? "yes" : "no"
                    default: break
                    }
                    return count
                }
            }
            facets.append(Facet(field: field.name, counts: counts, sampled: total >= Self.facetSample))
        }
        return facets
    }

    private func integer(_ value: FieldValue?) -> Int64 {
        if case .integer(let number)? = value { return number }
        return 0
    }

    /// `counts` with the related entity's label of each value, when it has one.
    func labelled(_ counts: [Facet.Count], relation: Relation, related: EntitySchema) async throws -> [Facet.Count] {
        guard let label = relation.labelColumn, related.columnIndex(label) != nil, related.key.count == 1 else {
            return counts
        }
        let key = SQLIdentifier.quoted(related.key[0])
        let values = counts.map(\.value).filter { $0 != .null }
        guard !values.isEmpty else { return counts }
        let list = values.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let rows = try await query(
            "SELECT \(key) AS k, \(SQLIdentifier.quoted(label)) AS l FROM \(SQLIdentifier.quoted(related.name))"
                + " WHERE \(key) IN (\(list))", values)
        var labels: [FieldValue: String] = [:]
        for row in rows {
            if case .text(let text)? = row["l"], let value = row["k"] { labels[value] = text }
        }
        return counts.map { count in
            var count = count
            count.label = labels[count.value]
            return count
        }
    }
}
