import FeedKit
import Foundation

extension PassRunner {
    /// Step 4b, after the commit: mirrors the images the feed's media columns name
    /// (``MediaMirror``), unless the pass did not commit, the run is offline, the engine does
    /// not deliver (fixture runs), the feed turned it off (`mirror_media: false`) or the run was
    /// interrupted. It never changes the outcome: a failed image is a note of the report.
    ///
    /// - Returns: what it did and its notes; `nil` when it did not run or the feed has no media
    ///   column.
    func mirrorMedia(_ pass: Started, after outcome: RunOutcome) async -> (counts: MediaPassCounts, notes: [String])? {
        let committed: Set<FeedReport.Status> = [.ok, .okWithRejects, .stale]
        guard committed.contains(outcome.status), !engine.offline, engine.deliversOutbox, feed.policy.mirrorsMedia,
            !Task.isCancelled
        else { return nil }
        var mirror = MediaMirror(
            store: engine.store, fetcher: engine.fetcher, context: pass.context, retryBase: engine.mediaRetryBase)
        mirror.credentials = { [adapter = feed.adapter] url in adapter.mediaCredentials(for: url) }
        return await mirror.mirror(feed: feed.name, schemas: feed.adapter.entities.map(\.schema))
    }
}
