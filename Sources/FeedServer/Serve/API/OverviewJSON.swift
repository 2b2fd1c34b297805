import FeedEngine

/// One feed as `GET /api/feeds` answers it: its last runs (newest first), the rows it holds per
/// entity and its rejects.
struct OverviewJSON: Encodable {
    var feed: String
    /// The adapter of its last run; for a feed that never ran, the config's.
    var adapter: String
    var recent: [RunRecord]
    var rows: [FeedOverview.EntityRows]
    var rejects: Int

    init(_ overview: FeedOverview) {
        feed = overview.name
        adapter = overview.last?.adapter ?? overview.adapter
        recent = overview.recent
        rows = overview.rows
        rejects = overview.rejects
    }
}
