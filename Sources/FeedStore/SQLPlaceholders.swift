/// `?` parameters written out for a statement of many values: an `IN` list, or the rows of a
/// multi-row `INSERT`.
enum SQLPlaceholders {
    /// `count` parameters: `?, ?, ?`.
    static func list(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// `count` rows of `width` parameters, for a `VALUES` list: `(?, ?), (?, ?)`.
    static func rows(_ count: Int, width: Int) -> String {
        Array(repeating: "(" + list(width) + ")", count: count).joined(separator: ", ")
    }
}
