import FeedKit

/// The full-text index of an entity's `search:` columns (``EntitySchema/search``), kept by the
/// store in each pass's own transaction, so a search never sees a row the pass has not
/// committed, nor misses one it has.
///
/// - SQLite: an FTS5 table `_search_<entity>` over the entity's table (external content: it
///   holds only the index, the text stays in the entity's table), kept by triggers on the
///   table, so every way a row is written, updated or deleted reaches it.
/// - PostgreSQL: a GIN index `_search_<entity>` on the expression its dialect writes,
///   `to_tsvector('simple', ...)` of the columns; deleted rows leave it with the rows.
///
/// Kept once for every driver (``ensure(_:on:)``), with the statements and records of its
/// dialect (``SQLDialect/searchIndex(_:)``).
///
/// Both split text into words of letters and digits and ignore case, and neither removes
/// accents nor stems words (`simple` on PostgreSQL: its `french` configuration stems, which
/// SQLite's FTS5 cannot), so a search finds the same rows on either store.
package enum SearchIndex {
    /// The name of the index (a table on SQLite, an index on PostgreSQL).
    package static func name(_ entity: String) -> String { "_search_" + entity }

    /// Brings the index of `schema` to what it declares, in the transaction under way: nothing
    /// when what the database records of it is what it would write; else drops what is there
    /// and, when the schema declares a search, creates the index and builds it from the table's
    /// rows. (A SQLite table that was rebuilt, a column converted or its key changed, lost its
    /// triggers, and so gets its index built again too.)
    package static func ensure(_ schema: EntitySchema, on connection: any SQLConnection) throws {
        let dialect = connection.dialect
        let wanted = dialect.searchIndex(schema)
        var present: [String: String] = [:]
        for row in try connection.rows(dialect.searchIndexRecordSQL, [.text(name(schema.name))]) {
            present[row[0].text ?? ""] = row[1].text ?? ""
        }
        guard present != wanted.records else { return }
        for statement in dialect.dropSearchIndex(of: schema.name) + wanted.statements {
            _ = try connection.execute(statement, [])
        }
    }

    /// Why `schema`'s `search` does not fit it, as a store error message; `nil` when it does.
    package static func problem(_ schema: EntitySchema) -> String? {
        schema.searchProblem.map { "entity '\(schema.name)': \($0)" }
    }
}

/// The index of an entity's search columns as a dialect writes it (``SQLDialect/searchIndex(_:)``).
package struct SearchIndexStatements {
    /// What ``SQLDialect/searchIndexRecordSQL`` reads of the index once written, by the name of
    /// each object it is made of; empty for a schema that declares no search.
    package var records: [String: String]
    /// The statements that create the index and build it from the table's rows; none for a
    /// schema that declares no search.
    package var statements: [String]

    package init(records: [String: String], statements: [String]) {
        self.records = records
        self.statements = statements
    }
}

/// The pieces of a query that searches an entity's full-text index (``SQLDialect/search(_:for:)``).
package struct SearchSQL {
    /// What the query reads from, in place of the table: the table aliased `t`, and the index
    /// or the search's terms; one `?` parameter, bound to ``argument``.
    package var from: String
    /// The parameter of ``from``: the searched words as the database reads them.
    package var argument: FieldValue
    /// The condition that a row of `t` matches (no parameter).
    package var condition: String
    /// A row's rank as a number that is higher for a better match (no parameter).
    package var rank: String

    package init(from: String, argument: FieldValue, condition: String, rank: String) {
        self.from = from
        self.argument = argument
        self.condition = condition
        self.rank = rank
    }
}
