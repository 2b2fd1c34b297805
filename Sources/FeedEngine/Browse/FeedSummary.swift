import FeedKit

/// What the overview shows of one feed: its last runs, the rows it holds and its rejects.
public struct FeedSummary: Sendable, Encodable {
    public struct EntityRows: Sendable, Encodable {
        public var entity: String
        public var rows: Int
    }

    public var feed: String
    public var adapter: String
    /// The newest runs, newest first (the last one is `recent.first`), for the chart.
    public var recent: [RunRecord]
    public var rows: [EntityRows]
    /// The rejects the store keeps for the feed.
    public var rejects: Int

    /// The last run, if the feed ran.
    public var last: RunRecord? { recent.first }
}

extension StoreBrowser {
    /// The runs the overview charts per feed.
    public static let recentRuns = 20

    /// Every feed that ran on the store, and every feed of `configured` (name and adapter)
    /// that has not, by name: a feed that never ran has no runs and no rows.
    public func overview(configured: [(feed: String, adapter: String)] = []) throws -> [FeedSummary] {
        let feeds = try query("SELECT feed, count(*) AS n FROM _runs GROUP BY feed ORDER BY feed")
            .compactMap { row -> String? in if case .text(let feed)? = row["feed"] { feed } else { nil } }
        var rejects: [String: Int] = [:]
        for row in try query("SELECT feed, count(*) AS n FROM _rejects GROUP BY feed") {
            if case .text(let feed)? = row["feed"], case .integer(let count)? = row["n"] { rejects[feed] = Int(count) }
        }
        var rows: [String: [FeedSummary.EntityRows]] = [:]
        for table in try tables() where table.parent == nil {
            let counts = try query(
                "SELECT _feed AS feed, count(*) AS n FROM \(SQLIdentifier.quoted(table.name)) GROUP BY _feed")
            for row in counts {
                if case .text(let feed)? = row["feed"], case .integer(let count)? = row["n"] {
                    rows[feed, default: []].append(.init(entity: table.name, rows: Int(count)))
                }
            }
        }
        let ran = try feeds.map { feed in
            let recent = try history.runs(feed: feed, limit: Self.recentRuns)
            return FeedSummary(
                feed: feed, adapter: recent.first?.adapter ?? "", recent: recent, rows: rows[feed] ?? [],
                rejects: rejects[feed] ?? 0)
        }
        let neverRan = configured.filter { !feeds.contains($0.feed) }.map {
            FeedSummary(feed: $0.feed, adapter: $0.adapter, recent: [], rows: [], rejects: 0)
        }
        return (ran + neverRan).sorted { $0.feed < $1.feed }
    }

    /// Whether `feed` has run on the store.
    public func hasFeed(_ feed: String) throws -> Bool {
        !(try query("SELECT 1 AS found FROM _runs WHERE feed = $1 LIMIT 1", [.text(feed)])).isEmpty
    }
}
