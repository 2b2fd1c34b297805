import FeedKit
import FeedStore
import Foundation

/// What a store says of one feed: its last runs, the rows it holds, its rejects, its cursor and
/// its place on the worker's schedule. `feedwork list` and `feedwork serve`'s overview (page and
/// API) both show it, each the fields it prints.
public struct FeedOverview: Sendable {
    /// The rows a feed holds in one entity.
    public struct EntityRows: Sendable, Encodable {
        public var entity: String
        public var rows: Int
    }

    public var name: String
    /// The adapter the config names; for a feed the config does not hold, the one of its last run.
    public var adapter: String
    /// Whether the config runs the feed; `true` for a feed the config does not hold.
    public var enabled: Bool
    /// The newest runs, newest first, as many as asked for (the last one is `recent.first`).
    public var recent: [RunRecord]
    /// The rows the feed holds per entity: for a feed whose config declares its entities, each
    /// of them the store has (`0` included), in the config's order; for any other (a Singer
    /// tap's streams come with its data), every entity of the store in which it has rows, by name.
    public var rows: [EntityRows]
    /// The rejects the store keeps for the feed.
    public var rejects: Int
    /// The incremental cursor the feed's last committed pass stored (``FeedPass/cursorStateKey``).
    public var cursor: String? = nil
    /// The feed's schedule in the config (`every: 15m`, `cron: ...`), for `feedwork worker`.
    public var schedule: FeedSchedule? = nil
    /// When a worker runs the feed next (ISO 8601), once a worker has put it on the schedule.
    public var nextRun: String? = nil
    /// The worker holding the feed (running its pass) while its lease lasts.
    public var worker: String? = nil
    /// The images its rows name in media columns: referenced, mirrored, failed and their bytes;
    /// `nil` for a feed with none.
    public var media: MediaSummary? = nil

    /// The media column of `list` and the overview: `3/4 mirrored, 1 failed, 120 KB`; `nil`
    /// for a feed with no media.
    public var mediaText: String? {
        guard let media, media.referenced > 0 else { return nil }
        let failed = media.failed > 0 ? ", \(media.failed) failed" : ""
        let bytes = ByteCountFormatter.string(fromByteCount: Int64(media.bytes), countStyle: .binary)
        return "\(media.mirrored)/\(media.referenced) mirrored\(failed), \(bytes)"
    }

    /// The last run, if the feed ran.
    public var last: RunRecord? { recent.first }
    /// When the last run finished (or started, if it never finished).
    public var lastRun: String? { last.map { $0.finishedAt ?? $0.startedAt } }
    /// The last run's status.
    public var status: String? { last?.status }
}

extension FeedOverview {
    /// What the config says of a feed an overview shows.
    struct Configured: Sendable {
        var name: String
        /// Empty when the config does not hold the feed.
        var adapter: String
        var enabled = true
        /// The entities the feed declares up front; none for a feed whose entities come with
        /// its data, or when only the feed's name and adapter are known.
        var entities: [String] = []
        var schedule: FeedSchedule? = nil
    }

    /// The overview of every feed in `config` when there is no store yet: none has run.
    public static func neverRun(config: FeedsConfig) -> [FeedOverview] {
        config.feeds.map {
            FeedOverview(
                name: $0.name, adapter: $0.adapterName, enabled: $0.enabled, recent: [], rows: [], rejects: 0,
                schedule: $0.schedule)
        }
    }

    /// The overview of every feed in `config`, in its order, from its store: the SQLite file,
    /// or the PostgreSQL schema. Feeds whose adapter this program lacks come last, with every
    /// entity they hold rows in.
    public static func load(config: FeedsConfig) async throws -> [FeedOverview] {
        let feeds =
            config.feeds.map {
                Configured(
                    name: $0.name, adapter: $0.adapterName, enabled: $0.enabled,
                    entities: $0.adapter.entities.map(\.schema.name), schedule: $0.schedule)
            }
            + config.unknownAdapters.map {
                Configured(name: $0.feed, adapter: $0.adapter, enabled: true, entities: [], schedule: nil)
            }
        return try await load(feeds, from: config.readingStore(), recentRuns: 1)
    }

    /// The overview of `feeds`, in their order, from `store`, each with its `recentRuns` newest runs.
    static func load(_ feeds: [Configured], from store: any StoreReading, recentRuns: Int) async throws
        -> [FeedOverview]
    {
        let board = try await store.scheduleEntries()
        let entities = try await store.schemas().keys.sorted()
        var held: [String: [String: Int]] = [:]
        for entity in entities {
            let counts = try await store.query(
                "SELECT _feed AS feed, count(*) AS n FROM \(SQLIdentifier.quoted(entity)) GROUP BY _feed",
                arguments: [])
            for case (.text(let feed)?, .integer(let count)?) in counts.map({ ($0["feed"], $0["n"]) }) {
                held[feed, default: [:]][entity] = Int(count)
            }
        }
        var rejects: [String: Int] = [:]
        for row in try await store.query("SELECT feed, count(*) AS n FROM _rejects GROUP BY feed", arguments: []) {
            if case .text(let feed)? = row["feed"], case .integer(let count)? = row["n"] { rejects[feed] = Int(count) }
        }
        var cursors: [String: String] = [:]
        let cursorRows = try await store.query(
            "SELECT feed, value FROM _state WHERE key = $1", arguments: [.text(FeedPass.cursorStateKey)])
        for row in cursorRows {
            if case .text(let feed)? = row["feed"], case .text(let value)? = row["value"] { cursors[feed] = value }
        }
        // A store that cannot say (one opened read-only before its media tables existed) shows none.
        let media = (try? await store.mediaSummaries()) ?? [:]
        let now = Date()
        var overviews: [FeedOverview] = []
        for feed in feeds {
            let counts = held[feed.name] ?? [:]
            let rows: [EntityRows] =
                feed.entities.isEmpty
                ? entities.compactMap { entity in counts[entity].map { EntityRows(entity: entity, rows: $0) } }
                : feed.entities.filter(entities.contains).map { EntityRows(entity: $0, rows: counts[$0] ?? 0) }
            let entry = board[feed.name]
            let leased = entry.flatMap { entry in entry.leaseUntil.map { $0 > now } } ?? false
            let recent = try await store.runs(feed: feed.name, limit: recentRuns)
            overviews.append(
                FeedOverview(
                    name: feed.name, adapter: feed.adapter.isEmpty ? recent.first?.adapter ?? "" : feed.adapter,
                    enabled: feed.enabled, recent: recent, rows: rows,
                    rejects: rejects[feed.name] ?? 0, cursor: cursors[feed.name], schedule: feed.schedule,
                    nextRun: feed.schedule == nil ? nil : entry.map { Timestamp.string($0.nextRunAt) },
                    worker: leased ? entry?.worker : nil, media: media[feed.name]))
        }
        return overviews
    }
}
