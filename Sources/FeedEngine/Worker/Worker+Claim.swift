import FeedKit
import FeedStore
import Foundation
import Logging

/// How a worker asks the schedule board for due feeds, in the background of its loop.
extension Worker {
    /// Claims up to `limit` of the board's feeds but `excluded` due within `horizon`, and says
    /// when to ask again: at once when the limit was reached, else `horizon` before the next of
    /// the others is due (at the end of its lease when another worker holds it), and at the
    /// latest after `poll`.
    static func claim(
        excluding excluded: [String], store: Store, worker: String, time: ScheduleTime, lease: FeedDuration,
        horizon: TimeInterval, poll: TimeInterval, limit: Int, logger: Logger
    ) async -> WorkerLoop.Event {
        let asked = time.now()
        do {
            let claims = try await store.claim(
                excluding: excluded, worker: worker, now: asked, dueBy: asked.addingTimeInterval(horizon), lease: lease,
                limit: limit)
            let answered = time.now()
            logger.debug(
                "claimed \(claims.count) feed(s) of at most \(limit) in \(Int(answered.timeIntervalSince(asked) * 1000)) ms"
            )
            var again = asked.addingTimeInterval(poll)
            if claims.count == limit {
                again = asked
            } else {
                if let next = try await store.nextClaimable(excluding: excluded + claims.map(\.feed)) {
                    // A feed due within the horizon and not claimed is held by another worker:
                    // it is claimable once that one's lease runs out, not before.
                    let ahead = next.addingTimeInterval(-horizon)
                    again = min(again, ahead > asked ? ahead : max(next, answered))
                }
            }
            return .claimed(claims, asked: asked, claimAgain: again, failure: nil)
        } catch {
            return .claimed([], asked: asked, claimAgain: time.now().addingTimeInterval(poll), failure: "\(error)")
        }
    }
}
