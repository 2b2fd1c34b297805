import Foundation

/// `_outbox`: events to deliver as GET requests, kept until delivered; written once for every
/// driver.
///
/// Events are queued in a pass's transaction, or after a failed pass with its run's end
/// (``Store/recordFailedRun(_:feed:outcome:outbox:rejects:credentials:)``); the engine
/// delivers them once the pass commits.
extension StoreReading {
    /// `feed`'s undelivered events, oldest first.
    package func pendingOutbox(feed: String) async throws -> [OutboxEvent] {
        try await readSQL { connection in
            try connection.rows(
                "SELECT id, url FROM _outbox WHERE feed = ? AND delivered_at IS NULL ORDER BY id", [SQLValue(feed)]
            ).map { OutboxEvent(id: $0[0].integer ?? 0, url: $0[1].text ?? "") }
        }
    }

}

extension Store {
    /// Marks event `id` delivered now: it is never sent again.
    package func markOutboxDelivered(_ id: Int64) async throws {
        try await writeSQL { connection in
            _ = try connection.execute(
                "UPDATE _outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?",
                [SQLValue(Timestamp.string(Date())), .integer(id)])
        }
    }

    /// Counts a failed delivery of event `id`, keeping `error` (redacted); it stays queued.
    package func markOutboxFailed(_ id: Int64, error: String) async throws {
        try await writeSQL { connection in
            _ = try connection.execute(
                "UPDATE _outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                [SQLValue(error), .integer(id)])
        }
    }
}

/// Queueing outbox events in a transaction under way.
package enum StoreOutbox {
    /// Queues `urls` (sealed) for `feed`'s pass `run`.
    package static func enqueue(_ urls: [String], feed: String, run: Int64, in connection: any SQLConnection) throws {
        let now = SQLValue(Timestamp.string(Date()))
        for url in urls {
            try connection.execute(
                "INSERT INTO _outbox(feed, run, url, created_at) VALUES (?, ?, ?, ?)",
                [SQLValue(feed), .integer(run), SQLValue(url), now])
        }
    }
}
