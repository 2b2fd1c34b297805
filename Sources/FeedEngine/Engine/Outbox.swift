import FeedKit
import FeedStore
import Foundation

/// Delivery of the events a feed queued in `_outbox` (``StoreReading/pendingOutbox(feed:)``).
///
/// An event is written in the same transaction as the data it describes, so it exists exactly
/// when the data does. Delivery happens after the feed commits; an event that cannot be delivered
/// stays queued for the next run, and a delivered event is marked at once and never sent again.
enum Outbox {
    /// Delivers the feed's pending events in order; stops at the first failure so order holds,
    /// keeping its error through the pass's `redaction`.
    ///
    /// - Returns: how many were delivered and how many remain.
    static func deliver(
        feed: String, store: Store, fetcher: any Fetching, context: FetchContext, redaction: PassRedaction
    ) async -> (delivered: Int, pending: Int) {
        guard let pending = try? await store.pendingOutbox(feed: feed) else { return (0, 0) }
        var delivered = 0
        for (index, event) in pending.enumerated() {
            // Queued URLs hold placeholders instead of secrets (see Redactor.seal).
            let request = FetchRequest(url: context.redactor.unseal(event.url), cacheable: false)
            do {
                _ = try await fetcher.fetch(request, context: context)
                try await store.markOutboxDelivered(event.id)
                delivered += 1
            } catch {
                try? await store.markOutboxFailed(event.id, error: redaction.message(error))
                return (delivered, pending.count - index)
            }
        }
        return (delivered, 0)
    }
}
