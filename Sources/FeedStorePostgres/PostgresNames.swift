import FeedKit
import FeedStore

/// The names Feedwork makes in PostgreSQL for an entity, checked before any is made: by
/// `validate` for the entities a config declares, and when a pass prepares an entity's tables
/// (a singer tap chooses its streams' and properties' names as it runs).
///
/// PostgreSQL cuts a longer name to 63 bytes without an error: a table, column, view or index
/// name over the limit would name something else (two entities alike in their first 63 bytes
/// would share a table). And an unqualified name beginning with `pg_` is looked up in
/// `pg_catalog` before the store's schema, whatever the search path says, so an entity
/// `pg_class` would be PostgreSQL's own catalog table. SQLite has neither limit.
package enum PostgresNames {
    /// The longest name PostgreSQL keeps whole, in bytes (`NAMEDATALEN - 1`).
    package static let maximumBytes = 63

    /// What is wrong with `schema`'s names on PostgreSQL, a sentence for each name the user or
    /// the tap can shorten (the entity's, a list field's, a column's); empty when nothing is.
    package static func problems(_ schema: EntitySchema) -> [String] {
        var problems: [String] = []
        if schema.name.lowercased().hasPrefix("pg_") {
            problems.append(
                "entity '\(schema.name)': names beginning with pg_ are PostgreSQL's (its catalog comes first on the search path, so '\(schema.name)' could name a system table); choose another entity name"
            )
        }
        /// The first made name of `names` that is too long, reported once for what it comes from.
        func check(_ names: [(name: String, what: String)], shorten: String) {
            guard let long = names.first(where: { $0.name.utf8.count > maximumBytes }) else { return }
            problems.append(
                "entity '\(schema.name)': the \(long.what) '\(long.name)' is \(long.name.utf8.count) bytes, over PostgreSQL's limit of \(maximumBytes) (it would cut the name, which could then mean another one); \(shorten)"
            )
        }
        check(
            tableNames(schema.name, what: "table", view: true)
                + (schema.search.isEmpty ? [] : [(SearchIndex.name(schema.name), "search index")]),
            shorten: "use a shorter entity name")
        for child in schema.children {
            let table = schema.childTableName(child)
            check(
                tableNames(table, what: "child table", view: false),
                shorten: "use a shorter name for list '\(child.name)'")
            for column in child.columns {
                check([(column.name, "column of \(table)")], shorten: "use a shorter name for '\(column.name)'")
            }
        }
        let references = Set(ForeignKey.declared(by: schema).map(\.column))
        for column in schema.columns {
            var names = [(column.name, "column")]
            if column.currency != nil && column.type == .integer {
                names += [("\(column.name)_amount", "view column"), ("\(column.name)_currency", "view column")]
            }
            if references.contains(column.name) { names.append(("\(schema.name)_\(column.name)_ref", "index")) }
            check(names, shorten: "use a shorter name for '\(column.name)'")
        }
        for relation in schema.relations {
            guard let label = relation.labelColumn else { continue }
            check(
                [("\(relation.entity)_\(label)", "view column")],
                shorten: "use a shorter label for the relation to '\(relation.entity)'")
        }
        return problems
    }

    /// A table's name and those made from it: its view, its staging table and its index.
    private static func tableNames(_ table: String, what: String, view: Bool) -> [(name: String, what: String)] {
        [(table, what)] + (view ? [(EntityView.name(table), "view")] : [])
            + [("_stage_" + table, "staging table"), (table + "_feed_key", "index")]
    }
}
