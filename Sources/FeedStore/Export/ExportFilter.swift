import FeedKit

/// One `--where` condition: FeedKit's ``FieldCondition`` (`FIELD=VALUE`, `!=`, `<`, `<=`, `>`,
/// `>=`, `~`), the grammar the json adapter's `filter:` shares. Export binds its value as a
/// SQL parameter, never spliced into the query.
public typealias ExportFilter = FieldCondition

extension FieldCondition {
    /// Parses a `--where` condition.
    ///
    /// - Throws: a usage ``ExportError`` when there is no operator or no field name, or when
    ///   the condition holds a NUL byte (SQLite's text functions would stop at it, so that
    ///   `title~` followed by a NUL would match every row).
    public init(where text: String) throws(ExportError) {
        if let nul = text.firstIndex(of: "\u{0}") {
            let shown = text[..<nul] + "\\0"
            throw .usage("--where '\(shown)...': a condition cannot hold a NUL byte (U+0000)")
        }
        do {
            try self.init(parsing: text)
        } catch {
            throw .usage("--where \(error.message)")
        }
    }
}
