import FeedKit
import FeedStore
import GRDB

/// The SQL of ``StoreDrop`` on SQLite, in the transaction of `db`.
struct SQLiteDropStatements: DropStatements {
    let db: Database
    let location: String

    func schemas() throws -> [String: EntitySchema] { try SQLiteStore.schemas(in: db) }

    func execute(_ sql: String, _ arguments: [String]) throws -> Int {
        try db.execute(sql: sql, arguments: StatementArguments(arguments))
        return db.changesCount
    }

    func integer(_ sql: String, _ arguments: [String]) throws -> Int {
        try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
    }

    func retired(of entity: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT retired FROM _entities WHERE name = ?", arguments: [entity])
    }

    func columns(of table: String) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQLIdentifier.quoted(table)))").map { $0["name"] as String }
    }

    func dropColumn(_ column: String, of table: String) throws {
        try db.execute(
            sql: "ALTER TABLE \(SQLIdentifier.quoted(table)) DROP COLUMN \(SQLIdentifier.quoted(column))")
    }

    /// With an entity's table goes its full-text index (``SQLiteSearchIndex``), a table of its own.
    func dropTable(_ table: String) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(SQLIdentifier.quoted(table))")
        try SQLiteSearchIndex.drop(of: table, in: db)
    }

    func dropView(of entity: String) throws { try SQLiteEntityView.drop(of: entity, in: db) }

    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws {
        try SQLiteEntityView.ensure(schema, schemas: schemas, in: db)
    }
}

extension SQLiteStore {
    /// Drops `target` in one transaction (``StoreDrop``); returns what was removed.
    package func drop(_ target: DropTarget) async throws -> String {
        let path = self.path
        let dropped = try await write { db in
            try StoreDrop.drop(target, on: SQLiteDropStatements(db: db, location: path))
        }
        if case .feed(let feed) = target { try credentialJournal.forgetAll(feed: feed) }
        return dropped
    }
}
