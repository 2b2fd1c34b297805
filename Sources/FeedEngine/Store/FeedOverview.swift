import FeedKit
import Foundation
import GRDB

/// A feed's last run and its row counts, for `feedwork list`.
public struct FeedOverview: Sendable {
    public var name: String
    public var adapter: String
    public var enabled: Bool
    /// When the last run finished (or started, if it never finished).
    public var lastRun: String?
    public var status: String?
    public var rows: [(entity: String, count: Int)]
    /// The incremental cursor the feed's last committed pass stored (``FeedPass/cursorStateKey``).
    public var cursor: String? = nil
    /// The feed's schedule in the config (`every: 15m`, `cron: ...`), for `feedwork worker`.
    public var schedule: FeedSchedule? = nil
    /// When a worker runs the feed next (ISO 8601), once a worker has put it on the schedule.
    public var nextRun: String? = nil
    /// The worker holding the feed (running its pass) while its lease lasts.
    public var worker: String? = nil

    /// The overview of every feed in `config` when there is no store yet: none has run.
    public static func neverRun(config: FeedsConfig) -> [FeedOverview] {
        config.feeds.map {
            FeedOverview(
                name: $0.name, adapter: $0.adapterName, enabled: $0.enabled, lastRun: nil, status: nil, rows: [],
                schedule: $0.schedule)
        }
    }

    /// The overview of every feed in `config`, from its SQLite store.
    public static func load(config: FeedsConfig, store: SQLiteStore) throws -> [FeedOverview] {
        let board = try store.scheduleEntries()
        return try store.read { db in try load(config: config, from: SQLiteFacts(db: db), board: board) }
    }

    /// The overview of every feed in `config`, from its store: the SQLite file, or the
    /// PostgreSQL schema.
    public static func load(config: FeedsConfig) throws -> [FeedOverview] {
        guard let store = try config.postgresStore() else {
            return try load(config: config, store: SQLiteStore(readingAt: config.storePath))
        }
        let board = try store.scheduleEntries()
        return try store.read { connection in
            try load(config: config, from: PostgresFacts(connection: connection), board: board)
        }
    }

    private static func load(config: FeedsConfig, from facts: some OverviewFacts, board: [String: ScheduleEntry])
        throws -> [FeedOverview]
    {
        let now = Date()
        return try config.feeds.map { feed in
            var rows: [(String, Int)] = []
            // A feed whose entities come with its data (a Singer tap's streams) declares none
            // up front: the store's entities holding its rows stand for them.
            let declared = feed.adapter.entities.map(\.schema.name)
            for name in declared.isEmpty ? try facts.entityNames() : declared {
                guard let count = try facts.rowCount(of: name, feed: feed.name) else { continue }
                if !declared.isEmpty || count > 0 { rows.append((name, count)) }
            }
            let last = try facts.lastRun(of: feed.name)
            let entry = board[feed.name]
            let held = entry.flatMap { entry in entry.leaseUntil.map { $0 > now } } ?? false
            return FeedOverview(
                name: feed.name, adapter: feed.adapterName, enabled: feed.enabled, lastRun: last?.time,
                status: last?.status, rows: rows,
                cursor: try facts.state(of: feed.name, key: FeedPass.cursorStateKey), schedule: feed.schedule,
                nextRun: feed.schedule == nil ? nil : entry.map { Timestamp.string($0.nextRunAt) },
                worker: held ? entry?.worker : nil)
        }
    }
}

/// The few facts about a store an overview needs, read on one snapshot.
private protocol OverviewFacts {
    /// When the feed's last run finished (or started, if it never finished), and its status.
    func lastRun(of feed: String) throws -> (time: String, status: String)?
    func entityNames() throws -> [String]
    /// The rows `feed` holds in `table`; `nil` when there is no such table.
    func rowCount(of table: String, feed: String) throws -> Int?
    func state(of feed: String, key: String) throws -> String?
}

private struct SQLiteFacts: OverviewFacts {
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

private struct PostgresFacts: OverviewFacts {
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
