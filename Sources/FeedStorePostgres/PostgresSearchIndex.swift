import FeedKit
import FeedStore

/// The full-text index of an entity's `search:` columns on PostgreSQL (``SearchIndex``): a GIN
/// index on ``document(_:table:)``, the `simple` `tsvector` of the columns. An expression index
/// rather than a column, so the entity's table has the same columns as on SQLite; queries
/// repeat the expression, which PostgreSQL then reads from the index.
enum PostgresSearchIndex {
    /// The `tsvector` of `schema`'s search columns of the table aliased `table` (none: bare
    /// names), exactly as the index is written.
    static func document(_ schema: EntitySchema, table: String? = nil) -> String {
        let prefix = table.map { $0 + "." } ?? ""
        let text = schema.search.map { "coalesce(\(prefix)\(PostgresSQL.identifier($0)), '')" }
            .joined(separator: " || ' ' || ")
        return "to_tsvector('simple'::regconfig, \(text))"
    }

    /// The comment the index carries, by which a pass knows it is as the schema declares it.
    static func marker(_ schema: EntitySchema) -> String {
        "feedwork search: " + schema.search.joined(separator: ", ")
    }

    /// Brings the index of `schema` to what it declares: nothing when it is there with its
    /// columns; else drops what is there and, when the schema declares a search, creates it,
    /// which indexes the table's rows.
    static func ensure(_ schema: EntitySchema, in connection: PostgresConnection) throws {
        let namespace = try connection.execute(PostgresSQL.currentSchemaSQL).first(column: 0) ?? ""
        let index = PostgresSQL.qualified(SearchIndex.name(schema.name), in: namespace)
        let comment = try connection.execute(
            "SELECT obj_description(to_regclass($1), 'pg_class')", [index]
        ).first(column: 0)
        let wanted = schema.search.isEmpty ? nil : marker(schema)
        guard comment != wanted else { return }
        try connection.execute("DROP INDEX IF EXISTS \(index)")
        guard let wanted else { return }
        try connection.execute(
            "CREATE INDEX \(PostgresSQL.identifier(SearchIndex.name(schema.name))) ON "
                + "\(PostgresSQL.qualified(schema.name, in: namespace)) USING gin (\(document(schema)))")
        try connection.execute("COMMENT ON INDEX \(index) IS '\(wanted.replacingOccurrences(of: "'", with: "''"))'")
    }
}

extension PostgresDialect {
    /// The indexed expression matched against the words (all of them), ranked by `ts_rank` as
    /// a `float8`, whose text reads back as the same number in a page's cursor.
    func search(_ schema: EntitySchema, for query: SearchQuery) -> SearchSQL {
        let document = PostgresSearchIndex.document(schema, table: "t")
        return SearchSQL(
            from:
                "\(SQLIdentifier.quoted(schema.name)) AS t CROSS JOIN plainto_tsquery('simple'::regconfig, ?) AS s(query)",
            argument: .text(query.plainText), condition: "\(document) @@ s.query",
            rank: "ts_rank(\(document), s.query)::float8")
    }
}
