import FeedKit
import Foundation
import GRDB

/// Events to deliver as GET requests, kept in `_outbox` until delivered.
///
/// An event is written in the same transaction as the data it describes, so it exists exactly
/// when the data does. Delivery happens after the feed commits; an event that cannot be delivered
/// stays queued for the next run, and a delivered event is marked at once and never sent again.
enum Outbox {
    static func enqueue(_ urls: [String], feed: String, run: Int64, in db: Database) throws {
        let now = Timestamp.string(Date())
        for url in urls {
            try db.execute(
                sql: "INSERT INTO _outbox(feed, run, url, created_at) VALUES (?, ?, ?, ?)",
                arguments: [feed, run, url, now])
        }
    }

    /// Delivers the feed's pending events in order; stops at the first failure so order holds.
    ///
    /// - Returns: how many were delivered and how many remain.
    static func deliver(feed: String, store: EntityStore, fetcher: any Fetching, context: FetchContext) async
        -> (delivered: Int, pending: Int)
    {
        let pending: [(id: Int64, url: String)]
        do {
            pending = try store.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT id, url FROM _outbox WHERE feed = ? AND delivered_at IS NULL ORDER BY id",
                    arguments: [feed]
                ).map { ($0["id"], $0["url"]) }
            }
        } catch {
            return (0, 0)
        }
        var delivered = 0
        for (index, event) in pending.enumerated() {
            // Queued URLs hold placeholders instead of secrets (see Redactor.seal).
            let request = FetchRequest(url: context.redactor.unseal(event.url), cacheable: false)
            do {
                _ = try await fetcher.fetch(request, context: context)
                try await store.writeDetached { db in
                    try db.execute(
                        sql: "UPDATE _outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?",
                        arguments: [Timestamp.string(Date()), event.id])
                }
                delivered += 1
            } catch {
                let message = context.redactor.redact(String(describing: error))
                _ = try? await store.writeDetached { db in
                    try db.execute(
                        sql: "UPDATE _outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                        arguments: [message, event.id])
                }
                return (delivered, pending.count - index)
            }
        }
        return (delivered, 0)
    }
}
