import FeedKit

/// One `--where` condition: FeedKit's ``FieldCondition`` (`FIELD=VALUE`, `!=`, `<`, `<=`, `>`,
/// `>=`, `~`), the grammar the json adapter's `filter:` shares. Export binds its value as a
/// SQL parameter, never spliced into the query.
public typealias ExportFilter = FieldCondition

extension FieldCondition {
    /// Parses a `--where` condition.
    ///
    /// - Throws: a usage ``ExportError`` when there is no operator or no field name.
    public init(where text: String) throws(ExportError) {
        do {
            try self.init(parsing: text)
        } catch {
            throw .usage("--where \(error.message)")
        }
    }
}
