import FeedKit
import FeedStore
import GRDB

/// `_state`: what each feed remembers between passes (bookmarks, page summaries), by key.
///
/// Read here, on the store's snapshot, with the credentials set aside beside the store in place
/// of the stored ones (``SQLiteCredentialJournal``); written by
/// ``SQLitePassTransaction/setState(_:_:)`` in the feed's transaction, so a failed pass changes
/// nothing but its credentials (``recordFailedRun(_:feed:outcome:outbox:rejects:credentials:)``).
extension SQLiteStore {
    /// The value `feed` stored under `key`, or `nil`.
    package func state(feed: String, key: String) async throws -> String? {
        if key.hasPrefix(FeedPass.credentialStatePrefix),
            let setAside = try credentialJournal.entries(feed: feed)[key]
        {
            return setAside
        }
        return try await read { db in
            try String.fetchOne(db, sql: "SELECT value FROM _state WHERE feed = ? AND key = ?", arguments: [feed, key])
        }
    }

    /// The values `feed` stored under keys starting with `prefix`, by key.
    package func states(feed: String, prefix: String) async throws -> [String: String] {
        let stored = try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM _state WHERE feed = ? AND substr(key, 1, ?) = ?",
                arguments: [feed, prefix.utf8.count, prefix])
            var values: [String: String] = [:]
            for row in rows { values[row["key"]] = row["value"] }
            return values
        }
        var values = stored
        for (key, value) in try credentialJournal.entries(feed: feed) where key.hasPrefix(prefix) {
            values[key] = value
        }
        return values
    }

    /// Keeps credential `_state` of `feed` in a transaction of its own, committed at once. Set
    /// aside first and forgotten after the commit, so that what is set aside is never older.
    package func recordCredentials(_ credentials: [String: String?], feed: String) async throws {
        try credentialJournal.keep(credentials, feed: feed)
        try await write { db in
            for (key, value) in credentials { try Self.setState(key, value, feed: feed, in: db) }
        }
        try credentialJournal.forget(credentials, feed: feed)
    }

    /// Sets credential `_state` of `feed` aside beside the store, durably, while the pass's
    /// transaction holds the store's one writer; the pass's commit, or the next committed
    /// write of them, stores them.
    package func setAsideCredentials(_ credentials: [String: String?], feed: String) async throws {
        try credentialJournal.keep(credentials, feed: feed)
    }

    /// Stores `value` under `key` for `feed` (removes it for `nil`), in the transaction of `db`.
    static func setState(_ key: String, _ value: String?, feed: String, in db: Database) throws {
        if let value {
            try db.execute(
                sql:
                    "INSERT INTO _state(feed, key, value) VALUES (?, ?, ?) ON CONFLICT(feed, key) DO UPDATE SET value = excluded.value",
                arguments: [feed, key, value])
        } else {
            try db.execute(sql: "DELETE FROM _state WHERE feed = ? AND key = ?", arguments: [feed, key])
        }
    }
}
