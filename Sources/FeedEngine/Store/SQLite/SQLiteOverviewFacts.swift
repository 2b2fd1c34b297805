import GRDB

/// What an overview needs (``OverviewFacts``), read on one SQLite read transaction.
struct SQLiteOverviewFacts: OverviewFacts {
    let db: Database

    func lastRun(of feed: String) throws -> (time: String, status: String)? {
        let sql = "SELECT coalesce(finished_at, started_at), status FROM _runs WHERE feed = ? ORDER BY id DESC LIMIT 1"
        return try Row.fetchOne(db, sql: sql, arguments: [feed]).map { ($0[0], $0[1]) }
    }

    func entityNames() throws -> [String] { try String.fetchAll(db, sql: "SELECT name FROM _entities ORDER BY name") }

    func rowCount(of table: String, feed: String) throws -> Int? {
        guard try db.tableExists(table) else { return nil }
        let sql = "SELECT count(*) FROM \(SQLIdentifier.quoted(table)) WHERE _feed = ?"
        return try Int.fetchOne(db, sql: sql, arguments: [feed]) ?? 0
    }

    func state(of feed: String, key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM _state WHERE feed = ? AND key = ?", arguments: [feed, key])
    }
}
