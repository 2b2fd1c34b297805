import FeedKit
import GRDB

/// `_state`: what each feed remembers between passes (bookmarks, page summaries), by key.
///
/// Read here, on the store's snapshot; written by ``SQLitePassTransaction/setState(_:_:)`` in the
/// feed's transaction, so a failed pass changes nothing.
extension SQLiteStore {
    /// The value `feed` stored under `key`, or `nil`.
    package func state(feed: String, key: String) async throws -> String? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT value FROM _state WHERE feed = ? AND key = ?", arguments: [feed, key])
        }
    }

    /// The values `feed` stored under keys starting with `prefix`, by key.
    package func states(feed: String, prefix: String) async throws -> [String: String] {
        try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM _state WHERE feed = ? AND substr(key, 1, ?) = ?",
                arguments: [feed, prefix.utf8.count, prefix])
            var values: [String: String] = [:]
            for row in rows { values[row["key"]] = row["value"] }
            return values
        }
    }
}
