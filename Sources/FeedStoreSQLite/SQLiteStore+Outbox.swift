import FeedKit
import FeedStore
import Foundation
import GRDB

/// `_outbox`: events to deliver as GET requests, kept until delivered.
///
/// Events are queued in a pass's transaction (``SQLitePassTransaction/enqueueOutbox(_:)``), or after a
/// failed pass by ``recordFailedRun(_:feed:outcome:outbox:rejects:credentials:)``; the engine delivers them once the pass commits.
extension SQLiteStore {
    /// `feed`'s undelivered events, oldest first.
    package func pendingOutbox(feed: String) async throws -> [OutboxEvent] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, url FROM _outbox WHERE feed = ? AND delivered_at IS NULL ORDER BY id",
                arguments: [feed]
            ).map { OutboxEvent(id: $0["id"], url: $0["url"]) }
        }
    }

    /// Marks event `id` delivered now: it is never sent again.
    package func markOutboxDelivered(_ id: Int64) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE _outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?",
                arguments: [Timestamp.string(Date()), id])
        }
    }

    /// Counts a failed delivery of event `id`, keeping `error` (redacted); it stays queued.
    package func markOutboxFailed(_ id: Int64, error: String) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE _outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?", arguments: [error, id])
        }
    }

    static func enqueueOutbox(_ urls: [String], feed: String, run: Int64, in db: Database) throws {
        let now = Timestamp.string(Date())
        for url in urls {
            try db.execute(
                sql: "INSERT INTO _outbox(feed, run, url, created_at) VALUES (?, ?, ?, ?)",
                arguments: [feed, run, url, now])
        }
    }
}
