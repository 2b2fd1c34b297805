/// Names in the store's SQL, written the same way on every store.
package enum SQLIdentifier {
    /// `name` as a quoted identifier: in double quotes, a double quote doubled.
    package static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
