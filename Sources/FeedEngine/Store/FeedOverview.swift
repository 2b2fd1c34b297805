import FeedKit
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

    /// The overview of every feed in `config` when there is no store yet: none has run.
    public static func neverRun(config: FeedsConfig) -> [FeedOverview] {
        config.feeds.map {
            FeedOverview(
                name: $0.name, adapter: $0.adapterName, enabled: $0.enabled, lastRun: nil, status: nil, rows: [])
        }
    }

    /// The overview of every feed in `config`.
    public static func load(config: FeedsConfig, store: EntityStore) throws -> [FeedOverview] {
        try store.read { db in
            try config.feeds.map { feed in
                let last = try Row.fetchOne(
                    db,
                    sql: "SELECT started_at, finished_at, status FROM _runs WHERE feed = ? ORDER BY id DESC LIMIT 1",
                    arguments: [feed.name])
                var rows: [(String, Int)] = []
                // A feed whose entities come with its data (a Singer tap's streams) declares none
                // up front: the store's entities holding its rows stand for them.
                let declared = feed.adapter.entities.map(\.schema.name)
                let names =
                    declared.isEmpty
                    ? try String.fetchAll(db, sql: "SELECT name FROM _entities ORDER BY name") : declared
                for name in names where try db.tableExists(name) {
                    let count =
                        try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM \(EntityTable.quoted(name)) WHERE _feed = ?",
                            arguments: [feed.name]) ?? 0
                    if !declared.isEmpty || count > 0 { rows.append((name, count)) }
                }
                let finished: String? = last?["finished_at"]
                let started: String? = last?["started_at"]
                let cursor = try String.fetchOne(
                    db, sql: "SELECT value FROM _state WHERE feed = ? AND key = ?",
                    arguments: [feed.name, FeedPass.cursorStateKey])
                return FeedOverview(
                    name: feed.name, adapter: feed.adapterName, enabled: feed.enabled, lastRun: finished ?? started,
                    status: last?["status"], rows: rows, cursor: cursor)
            }
        }
    }
}
