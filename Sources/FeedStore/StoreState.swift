import FeedKit

/// `_state`: what each feed remembers between passes (bookmarks, page summaries, credentials),
/// by key; written once for every driver.
///
/// A pass's values are written in its transaction (``StoreState/set(_:feed:in:)``), so a failed
/// pass changes nothing but its credentials, which ``Store/recordFailedRun(_:feed:outcome:outbox:rejects:credentials:)``
/// and ``Store/recordCredentials(_:feed:)`` keep in transactions of their own.
extension StoreReading {
    /// The value `feed` stored under `key`, or `nil`; a credential set aside
    /// (``credentialJournal``) is newer than the stored one.
    package func state(feed: String, key: String) async throws -> String? {
        if key.hasPrefix(FeedPass.credentialStatePrefix), let setAside = try credentialJournal?.entries(feed: feed)[key]
        {
            return setAside
        }
        return try await readSQL { connection in
            try connection.rows("SELECT value FROM _state WHERE feed = ? AND key = ?", [.text(feed), .text(key)])
                .first?[0].text
        }
    }

    /// The values `feed` stored under keys starting with `prefix`, by key, with the credentials
    /// set aside in place of the stored ones.
    package func states(feed: String, prefix: String) async throws -> [String: String] {
        // Both databases count a text's characters as Unicode scalars: neither Swift's
        // characters (`é` written as `e` and an accent is one) nor UTF-8 bytes.
        var values = try await readSQL { connection in
            var values: [String: String] = [:]
            for row in try connection.rows(
                "SELECT key, value FROM _state WHERE feed = ? AND substr(key, 1, ?) = ?",
                [.text(feed), .integer(Int64(prefix.unicodeScalars.count)), .text(prefix)])
            {
                values[row[0].text ?? ""] = row[1].text
            }
            return values
        }
        for (key, value) in try credentialJournal?.entries(feed: feed) ?? [:] where key.hasPrefix(prefix) {
            values[key] = value
        }
        return values
    }
}

extension Store {
    /// Keeps credential `_state` of `feed` in a transaction of its own, committed at once. Set
    /// aside first (``credentialJournal``) and forgotten after the commit, so that what is set
    /// aside is never older.
    package func recordCredentials(_ credentials: [String: String?], feed: String) async throws {
        try credentialJournal?.keep(credentials, feed: feed)
        try await writeSQL { connection in try StoreState.set(credentials, feed: feed, in: connection) }
        try credentialJournal?.forget(credentials, feed: feed)
    }

    /// Keeps credential `_state` of `feed` durable at once while the pass's transaction may hold
    /// the store's one writer, so that ``recordCredentials(_:feed:)`` would wait for the pass: a
    /// token renewed mid-pass must outlive a process killed before the commit. Set aside beside
    /// the store (``credentialJournal``), the pass's commit or the next write of them stores
    /// them; a store without a journal (its passes never hold the writer of other writes)
    /// commits them at once.
    package func setAsideCredentials(_ credentials: [String: String?], feed: String) async throws {
        if let journal = credentialJournal {
            try journal.keep(credentials, feed: feed)
        } else {
            try await recordCredentials(credentials, feed: feed)
        }
    }
}

/// Writing `_state` in a transaction under way.
package enum StoreState {
    /// Rows a statement writes at most: 3 parameters each, well within both databases' limits.
    static let batch = 500

    /// Stores each value under its key for `feed`, removing the keys whose value is `nil`: at
    /// most one statement of each kind per ``batch`` keys.
    package static func set(_ values: [String: String?], feed: String, in connection: any SQLConnection) throws {
        let removed = values.filter { $0.value == nil }.map(\.key).sorted()
        let stored = values.compactMap { key, value in value.map { (key, $0) } }.sorted { $0.0 < $1.0 }
        for keys in removed.chunks(of: batch) {
            _ = try connection.execute(
                "DELETE FROM _state WHERE feed = ? AND key IN (\(SQLPlaceholders.list(keys.count)))",
                [.text(feed)] + keys.map(SQLValue.text))
        }
        for rows in stored.chunks(of: batch) {
            _ = try connection.execute(
                "INSERT INTO _state(feed, key, value) VALUES \(SQLPlaceholders.rows(rows.count, width: 3))"
                    + " ON CONFLICT (feed, key) DO UPDATE SET value = excluded.value",
                rows.flatMap { [SQLValue.text(feed), .text($0.0), .text($0.1)] })
        }
    }
}
