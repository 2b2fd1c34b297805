import FeedKit

/// A view per entity for people who query the store with SQL: `<entity>_view`.
///
/// Decimals are stored as exact text, which SQL compares and sorts as text (`'107.7' < '3.6'`).
/// The view gives them as `REAL`, so `WHERE rate > 100` and `ORDER BY rate` work; the table
/// keeps the exact digits. A relation with a label gains the label beside its column
/// (`category_id`, `category_name`), and money in minor units its amount and currency
/// (`price` 249, `price_amount` 2.49, `price_currency` GBP). `_hash` is left out; the other
/// `_` columns stay.
///
/// Views are written again at the start of a pass whose schema changed them, so they follow the
/// schema; an unchanged view is left as it is. A view of that
/// name that Feedwork did not write (no `/* feedwork view */` in its SQL), or a table of that
/// name, is left alone.
///
/// PostgreSQL stores get the same views, with the same columns, from the same query in
/// PostgreSQL's dialect (in `FeedStorePostgres`).
package enum EntityView {
    package static let marker = "/* feedwork view */"

    /// The view's name for `entity`.
    package static func name(_ entity: String) -> String { entity + "_view" }

    /// The view's query in `dialect`. Decimals compare as numbers (``SQLDialect/number(_:)``);
    /// a money amount is a `REAL` on SQLite and an exact `numeric` on PostgreSQL. A relation's
    /// label is joined only when `tableExists` says the related entity's table is there.
    package static func select<Failure: Error>(
        _ schema: EntitySchema, schemas: [String: EntitySchema], dialect: any SQLDialect,
        tableExists: (String) throws(Failure) -> Bool
    ) throws(Failure) -> String {
        let q = SQLIdentifier.quoted
        var columns = ["_feed", "_key", "_run", "_first_seen", "_last_seen"].map { "t.\(q($0))" }
        var names = Set(schema.columns.map(\.name))
        for column in schema.columns {
            columns.append(
                column.type == .decimal
                    ? "\(dialect.number("t.\(q(column.name))")) AS \(q(column.name))" : "t.\(q(column.name))")
        }
        for column in schema.columns {
            // Money in minor units gains its amount and currency: 249 beside 2.49 and 'GBP'.
            guard let currency = column.currency, column.type == .integer else { continue }
            let code = currency.filter(\.isLetter)
            for (alias, expression) in [
                ("\(column.name)_amount", dialect.amount("t.\(q(column.name))", digits: Money.exponent(of: currency))),
                ("\(column.name)_currency", dialect.textLiteral(code)),
            ] where names.insert(alias).inserted {
                columns.append("\(expression) AS \(q(alias))")
            }
        }
        for relation in schema.relations {
            guard let label = relation.labelColumn, let related = schemas[relation.entity],
                related.key.count == 1, try tableExists(related.name)
            else { continue }
            let alias = "\(relation.entity)_\(label)"
            guard names.insert(alias).inserted else { continue }
            columns.append(
                "(SELECT r.\(q(label)) FROM \(q(related.name)) AS r WHERE r.\(q(related.key[0])) = t.\(q(relation.column)) LIMIT 1) AS \(q(alias))"
            )
        }
        return "SELECT \(columns.joined(separator: ", ")) FROM \(q(schema.name)) AS t"
    }
}
