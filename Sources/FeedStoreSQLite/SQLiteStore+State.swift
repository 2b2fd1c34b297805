import FeedKit
import FeedStore
import GRDB

/// `_state` on SQLite (``StoreState`` writes and reads it for every driver): the credentials
/// set aside beside the store (``SQLiteCredentialJournal``) are read in place of the stored
/// ones, because the pass's transaction may hold the store's one writer when a token renews.
extension SQLiteStore {
    /// The value `feed` stored under `key`, or `nil`; a credential set aside is newer.
    package func state(feed: String, key: String) async throws -> String? {
        if key.hasPrefix(FeedPass.credentialStatePrefix),
            let setAside = try credentialJournal.entries(feed: feed)[key]
        {
            return setAside
        }
        return try await storedState(feed: feed, key: key)
    }

    /// The values `feed` stored under keys starting with `prefix`, by key, with the credentials
    /// set aside in place of the stored ones.
    package func states(feed: String, prefix: String) async throws -> [String: String] {
        var values = try await storedStates(feed: feed, prefix: prefix)
        for (key, value) in try credentialJournal.entries(feed: feed) where key.hasPrefix(prefix) {
            values[key] = value
        }
        return values
    }

    /// Keeps credential `_state` of `feed` in a transaction of its own, committed at once. Set
    /// aside first and forgotten after the commit, so that what is set aside is never older.
    package func recordCredentials(_ credentials: [String: String?], feed: String) async throws {
        try credentialJournal.keep(credentials, feed: feed)
        try await writeSQL { connection in try StoreState.set(credentials, feed: feed, in: connection) }
        try credentialJournal.forget(credentials, feed: feed)
    }

    /// Sets credential `_state` of `feed` aside beside the store, durably, while the pass's
    /// transaction holds the store's one writer; the pass's commit, or the next committed
    /// write of them, stores them.
    package func setAsideCredentials(_ credentials: [String: String?], feed: String) async throws {
        try credentialJournal.keep(credentials, feed: feed)
    }
}
