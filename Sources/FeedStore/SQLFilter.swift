/// A `WHERE` clause made of the filters a caller gave (each `column = ?`-like, with its value),
/// so that a statement never tests a NULL parameter, which PostgreSQL cannot type.
package struct SQLFilter {
    private var conditions: [String] = []
    /// The values of the conditions' parameters, in order.
    private(set) var arguments: [SQLValue] = []

    package init() {}

    /// Adds `condition` (one `?` parameter) with `value`, when there is a value.
    package mutating func add(_ condition: String, _ value: SQLValue?) {
        guard let value else { return }
        conditions.append(condition)
        arguments.append(value)
    }

    /// `WHERE` and the conditions joined by `AND`, or nothing when there is none.
    package var clause: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }
}
