import FeedEngine
import FeedKit

extension SearchQuery {
    /// `text` as HTML: escaped (``TableBody/escape(_:)``), with each searched word in `<mark>`.
    /// What a page and the API show of a found row's search columns: nothing of `text` is ever
    /// markup, so an ad holding `<script>` shows it as text.
    func highlighted(_ text: String) -> String {
        let wanted = Set(words)
        var html = ""
        for run in Self.runs(of: text) {
            let escaped = TableBody.escape(String(run.text))
            html += run.isWord && wanted.contains(run.text.lowercased()) ? "<mark>\(escaped)</mark>" : escaped
        }
        return html
    }

    /// The search columns of `page`'s `row` (those it has), highlighted, by name: the
    /// `highlights` of `/api/entities/E/rows?q=`.
    func highlights(_ columns: [String], page: EntityPage, row: [FieldValue]) -> [String: String] {
        var result: [String: String] = [:]
        for column in columns {
            guard page.fields.contains(where: { $0.name == column }) else { continue }
            if case .text(let text) = page.value(column, in: row) { result[column] = highlighted(text) }
        }
        return result
    }
}
