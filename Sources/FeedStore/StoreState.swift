/// `_state`: what each feed remembers between passes (bookmarks, page summaries, credentials),
/// by key; written once for every driver.
///
/// A pass's values are written in its transaction (``StoreState/set(_:feed:in:)``), so a failed
/// pass changes nothing but its credentials, which ``StoreDriver/recordFailedRun(_:feed:outcome:outbox:rejects:credentials:)``
/// and ``StoreDriver/recordCredentials(_:feed:)`` keep in transactions of their own.
extension StoreReading {
    /// The value `feed` stored under `key`, or `nil`: what ``state(feed:key:)`` reads unless a
    /// driver keeps values elsewhere too (SQLite sets credentials aside beside the store).
    package func storedState(feed: String, key: String) async throws -> String? {
        try await readSQL { connection in
            try connection.rows("SELECT value FROM _state WHERE feed = ? AND key = ?", [.text(feed), .text(key)])
                .first?[0].text
        }
    }

    /// The values `feed` stored under keys starting with `prefix`, by key.
    package func storedStates(feed: String, prefix: String) async throws -> [String: String] {
        // Both databases count a text's characters as Unicode scalars: neither Swift's
        // characters (`é` written as `e` and an accent is one) nor UTF-8 bytes.
        try await readSQL { connection in
            var values: [String: String] = [:]
            for row in try connection.rows(
                "SELECT key, value FROM _state WHERE feed = ? AND substr(key, 1, ?) = ?",
                [.text(feed), .integer(Int64(prefix.unicodeScalars.count)), .text(prefix)])
            {
                values[row[0].text ?? ""] = row[1].text
            }
            return values
        }
    }

    package func state(feed: String, key: String) async throws -> String? {
        try await storedState(feed: feed, key: key)
    }

    package func states(feed: String, prefix: String) async throws -> [String: String] {
        try await storedStates(feed: feed, prefix: prefix)
    }
}

extension StoreDriver {
    /// Keeps credential `_state` of `feed` in a transaction of its own, committed at once.
    package func recordCredentials(_ credentials: [String: String?], feed: String) async throws {
        try await writeSQL { connection in try StoreState.set(credentials, feed: feed, in: connection) }
    }

    /// A store whose passes never hold the writer of its other writes (PostgreSQL: each has
    /// connections of its own) commits credentials at once, as always.
    package func setAsideCredentials(_ credentials: [String: String?], feed: String) async throws {
        try await recordCredentials(credentials, feed: feed)
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
        for start in stride(from: 0, to: removed.count, by: batch) {
            let keys = removed[start..<min(start + batch, removed.count)]
            _ = try connection.execute(
                "DELETE FROM _state WHERE feed = ? AND key IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", ")))",
                [.text(feed)] + keys.map(SQLValue.text))
        }
        for start in stride(from: 0, to: stored.count, by: batch) {
            let rows = stored[start..<min(start + batch, stored.count)]
            _ = try connection.execute(
                "INSERT INTO _state(feed, key, value) VALUES "
                    + Array(repeating: "(?, ?, ?)", count: rows.count).joined(separator: ", ")
                    + " ON CONFLICT (feed, key) DO UPDATE SET value = excluded.value",
                rows.flatMap { [SQLValue.text(feed), .text($0.0), .text($0.1)] })
        }
    }
}
