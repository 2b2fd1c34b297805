import FeedKit
import FeedStore
import Foundation

/// `_state` on PostgreSQL: what each feed remembers between passes, by key.
extension PostgresStore {
    /// The value `feed` stored under `key`, or `nil`.
    package func state(feed: String, key: String) async throws -> String? {
        try await read { connection in
            try connection.execute("SELECT value FROM _state WHERE feed = $1 AND key = $2", [feed, key])
                .first(column: 0)
        }
    }

    /// The values `feed` stored under keys starting with `prefix`, by key.
    package func states(feed: String, prefix: String) async throws -> [String: String] {
        try await read { connection in
            let rows = try connection.execute(
                "SELECT key, value FROM _state WHERE feed = $1 AND left(key, length($2)) = $2", [feed, prefix])
            var values: [String: String] = [:]
            for row in 0..<rows.count { values[rows[row, 0] ?? ""] = rows[row, 1] }
            return values
        }
    }

    /// Keeps credential `_state` of `feed` set after its pass, in a transaction of its own.
    package func recordCredentials(_ credentials: [String: String?], feed: String) async throws {
        try await write { connection in
            for (key, value) in credentials { try Self.setState(key, value, feed: feed, in: connection) }
        }
    }

    /// A pass's transaction never holds the writer of the store's other writes (they use
    /// connections of their own), so credentials are committed at once as always.
    package func setAsideCredentials(_ credentials: [String: String?], feed: String) async throws {
        try await recordCredentials(credentials, feed: feed)
    }

    /// Stores `value` under `key` for `feed` (removes it for `nil`).
    static func setState(_ key: String, _ value: String?, feed: String, in connection: PostgresConnection) throws {
        if let value {
            try connection.execute(
                """
                INSERT INTO _state(feed, key, value) VALUES ($1, $2, $3)
                ON CONFLICT (feed, key) DO UPDATE SET value = excluded.value
                """, [feed, key, value])
        } else {
            try connection.execute("DELETE FROM _state WHERE feed = $1 AND key = $2", [feed, key])
        }
    }

    /// Stores each value under its key for `feed` (removes the key for `nil`), as
    /// ``setState(_:_:feed:in:)`` does one, in at most two statements.
    static func setStates(_ values: [String: String?], feed: String, in connection: PostgresConnection) throws {
        guard values.count > 1 else {
            if let (key, value) = values.first { try setState(key, value, feed: feed, in: connection) }
            return
        }
        let removed = values.filter { $0.value == nil }.map(\.key)
        let stored = values.compactMap { key, value in value.map { (key, $0) } }
        if !removed.isEmpty {
            try connection.execute(
                "DELETE FROM _state WHERE feed = $1 AND key = ANY ($2::text[])",
                [feed, PostgresSQL.arrayLiteral(removed)])
        }
        guard !stored.isEmpty else { return }
        try connection.execute(
            """
            INSERT INTO _state(feed, key, value) SELECT $1, key, value FROM unnest($2::text[], $3::text[]) AS s(key, value)
            ON CONFLICT (feed, key) DO UPDATE SET value = excluded.value
            """, [feed, PostgresSQL.arrayLiteral(stored.map(\.0)), PostgresSQL.arrayLiteral(stored.map(\.1))])
    }
}

extension PostgresRows {
    /// The first row's value in `column`, or `nil` when there is no row or it is NULL.
    func first(column: Int) -> String? { count > 0 ? self[0, column] : nil }
}
