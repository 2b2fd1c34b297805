import FeedKit

/// A keyset page of an entity: the rows that sort after a cursor, in an order an index can
/// serve, so that page 10,000 reads as few rows as page 1 (no `OFFSET`).
///
/// Rows sort by the optional column, nulls last, then by `_feed`, `_key` and what breaks ties
/// among a key's rows (SQLite's rowid, PostgreSQL's `_row`, a child row's `_position`). With no
/// column that is the table's primary key order, so a page is an index range scan.
public struct Keyset: Sendable, Hashable {
    /// The column to sort by, if any.
    public var sort: OrderTerm?
    /// The sort values of the last row of the previous page (``PageCursor/values``), or `nil`
    /// for the first page.
    public var after: [FieldValue]?

    public init(sort: OrderTerm? = nil, after: [FieldValue]? = nil) {
        self.sort = sort
        self.after = after
    }

    /// The name under which a page query selects the tie-breaking column of an entity table.
    package static let tiebreakField = ExportField(name: "_row", type: .integer, isMeta: true)

    /// The column in which a page of a full-text search without a sort selects each row's rank
    /// (higher for a better match), which orders the page and starts its cursor.
    public static let rankField = ExportField(name: "_rank", type: .real, isMeta: true)

    /// The columns, after the sort column, whose values place a row: the table's key order.
    package static func keyColumns(of table: ExportTable) -> [String] {
        table.parent == nil ? ["_feed", "_key", tiebreakField.name] : ["_feed", "_key", "_position"]
    }
}

/// The ORDER BY and WHERE of a keyset page, for ``ExportQuery``.
package struct KeysetClauses {
    /// The condition that a row's `keys` (`_feed`, `_key`, then the tie-breaker) sort after
    /// `values`, and its arguments. Written `(_feed, _key) >= (a, b) AND ((_feed, _key) > (a, b)
    /// OR tie > c)` rather than as one row comparison of three: both databases then read the
    /// `(_feed, _key)` index from the cursor on (PostgreSQL would scan the table for the latter).
    package static func after(_ keys: [String], values: [FieldValue]) -> (String, [FieldValue]) {
        let pair = "(\(keys[0]), \(keys[1]))"
        let condition = "\(pair) >= (?, ?) AND (\(pair) > (?, ?) OR \(keys[2]) > ?)"
        return ("(" + condition + ")", [values[0], values[1], values[0], values[1], values[2]])
    }

    package var order: String
    package var condition: String?
    package var arguments: [FieldValue] = []

    /// - Parameter rank: the rank of a full-text search (higher first), which orders the rows
    ///   when the keyset has no sort.
    /// - Throws: a usage ``ExportError`` for a sort column the table does not have, a `json`
    ///   column, or a cursor that does not fit the order.
    package init(_ keyset: Keyset, table: ExportTable, dialect: any SQLDialect, rank: String? = nil) throws(ExportError)
    {
        let keys = Keyset.keyColumns(of: table).map { name in
            name == Keyset.tiebreakField.name ? dialect.tiebreak : "t." + SQLIdentifier.quoted(name)
        }
        var sortExpression: String?
        var orderTerms: [String] = []
        var sortField: ExportField?
        if let sort = keyset.sort {
            guard let field = table.field(sort.column), field.name != Keyset.tiebreakField.name else {
                throw .usage("sort: '\(table.name)' has no field '\(sort.column)'")
            }
            guard field.type != .json else { throw .usage("sort: '\(field.name)' holds JSON, which has no order") }
            let column = "t." + SQLIdentifier.quoted(field.name)
            let expression = field.type == .decimal ? dialect.number(column) : column
            orderTerms = ["(\(column) IS NULL)", expression + (sort.descending ? " DESC" : "")]
            sortExpression = expression
            sortField = field
        } else if let rank {
            orderTerms = [rank + " DESC"]
        }
        order = (orderTerms + keys).joined(separator: ", ")
        guard let after = keyset.after else { return }
        let expected = keys.count + (orderTerms.isEmpty ? 0 : 1)
        guard after.count == expected else { throw .usage("cursor: it does not belong to this order") }
        let (tail, keyArguments) = Self.after(keys, values: Array(after.suffix(keys.count)))
        if keyset.sort == nil, let rank {
            guard case .real = after[0] else { throw .usage("cursor: it does not belong to this order") }
            condition = "(\(rank) < ? OR (\(rank) = ? AND \(tail)))"
            arguments = [after[0], after[0]] + keyArguments
            return
        }
        guard let field = sortField, let expression = sortExpression, let sort = keyset.sort else {
            condition = tail
            arguments = keyArguments
            return
        }
        let column = "t." + SQLIdentifier.quoted(field.name)
        let value = after[0]
        if value == .null {
            condition = "(\(column) IS NULL AND \(tail))"
            arguments = keyArguments
            return
        }
        let bound = field.type == .decimal ? dialect.number("?") : "?"
        let beyond = sort.descending ? "<" : ">"
        condition =
            "(\(column) IS NULL OR \(expression) \(beyond) \(bound) OR (\(expression) = \(bound) AND \(tail)))"
        arguments = [value, value] + keyArguments
    }
}
