import FeedKit

extension StoreBrowser {
    /// The label a facet shows for the value `text` of `field` in `entity`'s rows, so that a
    /// condition a facet added (`category_id=4`) can be shown as the facet showed it
    /// ("Maison"): the related entity's label for a relation column, `yes` or `no` for a
    /// boolean, and `nil` for any other column or an unknown value.
    public func facetLabel(entity: String, field: String, value text: String) async throws -> String? {
        guard let owner = try await schema(of: entity), let index = owner.columnIndex(field) else { return nil }
        let type = owner.columns[index].type
        if type == .boolean {
            return ["1", "true"].contains(text) ? "yes" : ["0", "false"].contains(text) ? "no" : nil
        }
        guard let relation = owner.relations.first(where: { $0.column == field }),
            let related = try await schema(of: relation.entity)
        else { return nil }
        let value: FieldValue
        if type == .integer {
            guard let number = Int64(text) else { return nil }
            value = .integer(number)
        } else {
            value = .text(text)
        }
        let count = Facet.Count(value: value, label: nil, rows: 0)
        return try await labelled([count], relation: relation, related: related).first?.label
    }
}
