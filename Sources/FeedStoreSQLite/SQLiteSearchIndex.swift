import FeedKit
import FeedStore
import GRDB

/// The FTS5 index of an entity's `search:` columns on SQLite (``SearchIndex``): an
/// external-content table over the entity's table, and three triggers that keep it as the
/// table's rows are inserted, updated and deleted, whichever statement does it.
enum SQLiteSearchIndex {
    /// The statements that create the index of `schema` and its triggers, in order, as
    /// `sqlite_master` then holds them; none when the schema declares no search.
    static func statements(_ schema: EntitySchema) -> [(name: String, sql: String)] {
        guard !schema.search.isEmpty else { return [] }
        let index = SearchIndex.name(schema.name)
        let fts = SQLIdentifier.quoted(index)
        let table = SQLIdentifier.quoted(schema.name)
        let columns = schema.search.map(SQLIdentifier.quoted)
        let names = columns.joined(separator: ", ")
        let new = columns.map { "new." + $0 }.joined(separator: ", ")
        let old = columns.map { "old." + $0 }.joined(separator: ", ")
        let remove = "INSERT INTO \(fts)(\(fts), rowid, \(names)) VALUES ('delete', old.rowid, \(old));"
        let add = "INSERT INTO \(fts)(rowid, \(names)) VALUES (new.rowid, \(new));"
        // Accents are kept (remove_diacritics 0), as PostgreSQL's `simple` keeps them.
        return [
            (
                index,
                "CREATE VIRTUAL TABLE \(fts) USING fts5(\(names), content=\(SQLIdentifier.quoted(schema.name)), "
                    + "content_rowid='rowid', tokenize='unicode61 remove_diacritics 0')"
            ),
            (
                index + "_insert",
                "CREATE TRIGGER \(SQLIdentifier.quoted(index + "_insert")) AFTER INSERT ON \(table) BEGIN \(add) END"
            ),
            (
                index + "_delete",
                "CREATE TRIGGER \(SQLIdentifier.quoted(index + "_delete")) AFTER DELETE ON \(table) BEGIN \(remove) END"
            ),
            (
                index + "_update",
                "CREATE TRIGGER \(SQLIdentifier.quoted(index + "_update")) AFTER UPDATE OF \(names) ON \(table) "
                    + "BEGIN \(remove) \(add) END"
            ),
        ]
    }

    /// Brings the index of `schema` to what it declares: nothing when the index and its
    /// triggers are there as they would be written; else drops what is there and, when the
    /// schema declares a search, creates the index and builds it from the table's rows. A table
    /// that was rebuilt (a column converted, its key changed) lost its triggers, and so gets
    /// its index built again too.
    static func ensure(_ schema: EntitySchema, in db: Database) throws {
        let wanted = statements(schema)
        let index = SearchIndex.name(schema.name)
        let present = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE name IN (?, ?, ?, ?)",
            arguments: [index, index + "_insert", index + "_delete", index + "_update"]
        ).map { ($0["name"] as String, $0["sql"] as String? ?? "") }
        let current = Dictionary(present, uniquingKeysWith: { first, _ in first })
        if wanted.count == current.count, wanted.allSatisfy({ current[$0.name] == $0.sql }) { return }
        try drop(of: schema.name, in: db)
        for statement in wanted { try db.execute(sql: statement.sql) }
        if !wanted.isEmpty {
            let fts = SQLIdentifier.quoted(index)
            try db.execute(sql: "INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')")
        }
    }

    /// Drops the index of `entity` and its triggers, when there.
    static func drop(of entity: String, in db: Database) throws {
        let index = SearchIndex.name(entity)
        for trigger in ["_insert", "_delete", "_update"] {
            try db.execute(sql: "DROP TRIGGER IF EXISTS \(SQLIdentifier.quoted(index + trigger))")
        }
        try db.execute(sql: "DROP TABLE IF EXISTS \(SQLIdentifier.quoted(index))")
    }
}

extension SQLiteDialect {
    /// The FTS5 table first, with the words as its argument, then the entity's rows by rowid:
    /// the index finds the matches, the table is read for them alone. FTS5's `rank` (BM25) is
    /// lower for a better match.
    func search(_ schema: EntitySchema, for query: SearchQuery) -> SearchSQL {
        SearchSQL(
            from:
                "\(SQLIdentifier.quoted(SearchIndex.name(schema.name)))(?) AS s CROSS JOIN \(SQLIdentifier.quoted(schema.name)) AS t",
            argument: .text(query.ftsMatch), condition: "t.rowid = s.rowid", rank: "(-s.rank)")
    }
}
