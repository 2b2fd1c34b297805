import FeedKit
import Foundation

extension OrderTerm {
    /// Parses `--order` text: fields separated by commas, each descending when prefixed with `-`
    /// (`price,-weight`).
    ///
    /// - Throws: a usage ``ExportError`` for an empty term.
    public static func parseList(_ text: String) throws(ExportError) -> [OrderTerm] {
        var terms: [OrderTerm] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            let descending = trimmed.hasPrefix("-")
            let name = descending ? String(trimmed.dropFirst()) : trimmed
            guard !name.isEmpty else { throw .usage("--order '\(text)': empty field name") }
            terms.append(OrderTerm(name, descending: descending))
        }
        return terms
    }
}
