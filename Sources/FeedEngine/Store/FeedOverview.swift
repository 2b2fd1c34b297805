import FeedKit
import Foundation

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

    /// The overview of every feed in `config`, from its store: the SQLite file, or the
    /// PostgreSQL schema.
    public static func load(config: FeedsConfig) throws -> [FeedOverview] {
        try load(config: config, store: config.readingStore())
    }

    /// The overview of every feed in `config`, from `store`.
    static func load(config: FeedsConfig, store: any StoreReading) throws -> [FeedOverview] {
        let board = try store.scheduleEntries()
        return try store.overviewFacts { facts in try load(config: config, from: facts, board: board) }
    }

    private static func load(config: FeedsConfig, from facts: any OverviewFacts, board: [String: ScheduleEntry])
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
protocol OverviewFacts {
    /// When the feed's last run finished (or started, if it never finished), and its status.
    func lastRun(of feed: String) throws -> (time: String, status: String)?
    func entityNames() throws -> [String]
    /// The rows `feed` holds in `table`; `nil` when there is no such table.
    func rowCount(of table: String, feed: String) throws -> Int?
    func state(of feed: String, key: String) throws -> String?
}
