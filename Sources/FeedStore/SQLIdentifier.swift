/// Names in the store's SQL, written the same way on every store.
enum SQLIdentifier {
    /// `name` as a quoted identifier: in double quotes, a double quote doubled.
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
