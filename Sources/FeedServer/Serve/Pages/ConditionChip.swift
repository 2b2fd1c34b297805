import FeedEngine
import FeedKit

/// A condition of an entity page as its chip shows it: a condition a facet added
/// (`category_id=4`) wears the facet's label for its value (`category_id = Maison`, or
/// `is_urgent = yes`), the condition itself in its title; any other shows as written.
struct ConditionChip {
    var text: String
    var condition: String

    /// Reads the labels from the store.
    init(_ condition: String, entity: String, browser: StoreBrowser) async throws {
        self.condition = condition
        text = condition
        guard let parsed = try? ExportFilter(where: condition), [.equal, .notEqual].contains(parsed.op),
            let label = try await browser.facetLabel(entity: entity, field: parsed.field, value: parsed.value)
        else { return }
        text = "\(parsed.field) \(parsed.op.rawValue) \(label)"
    }
}
