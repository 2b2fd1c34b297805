/// What an overview needs (``OverviewFacts``), read on one PostgreSQL read connection.
struct PostgresOverviewFacts: OverviewFacts {
    let connection: PostgresConnection

    func lastRun(of feed: String) throws -> (time: String, status: String)? {
        let time = PostgresSQL.isoText("coalesce(finished_at, started_at)")
        let rows = try connection.execute(
            "SELECT \(time), status FROM _runs WHERE feed = $1 ORDER BY id DESC LIMIT 1", [feed])
        return rows.count > 0 ? (rows[0, 0] ?? "", rows[0, 1] ?? "") : nil
    }

    func entityNames() throws -> [String] {
        let rows = try connection.execute("SELECT name FROM _entities ORDER BY name")
        return (0..<rows.count).compactMap { rows[$0, 0] }
    }

    func rowCount(of table: String, feed: String) throws -> Int? {
        let quoted = PostgresSQL.identifier(table)
        guard try connection.execute("SELECT to_regclass($1) IS NOT NULL", [quoted]).first(column: 0) == "t" else {
            return nil
        }
        return Int(
            try connection.execute("SELECT count(*) FROM \(quoted) WHERE _feed = $1", [feed]).first(column: 0) ?? "0")
    }

    func state(of feed: String, key: String) throws -> String? {
        try connection.execute("SELECT value FROM _state WHERE feed = $1 AND key = $2", [feed, key]).first(column: 0)
    }
}
