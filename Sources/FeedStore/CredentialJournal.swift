import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Credentials set aside in files beside a store file (`feeds.sqlite-credentials/`), for the
/// one moment `_state` cannot take them at once: a pass that renews a token after its
/// transaction took the store's one writer (SQLite's; a long pass, a 401 mid-pass). A store
/// whose passes write on connections of their own (PostgreSQL) has none: it commits them. The endpoint may have
/// rotated the refresh token, so the new one must outlive a process killed before the pass
/// commits: it is written here, synced, before the pass sends anything with it.
///
/// The rule that keeps the two places consistent: a credential is written here **before** it
/// is committed to `_state`, and removed from here only **after**. So a value found here is
/// never older than the stored one, and reads prefer it.
///
/// One file per feed (its name hex-encoded), readable by its owner alone, as the store's own
/// file holds the same secrets; the folder is made when first needed. Only the process holding
/// the store's run lock writes the store, so the files have one writer.
package final class CredentialJournal: Sendable {
    /// The folder beside the store.
    package let folder: String
    /// Serializes the read-modify-write of a feed's file within the process.
    private let serial = Mutex(())

    package init(storePath: String) {
        folder = storePath + "-credentials"
    }

    /// The credentials set aside for `feed` (`nil` values are removed keys), none when no file.
    ///
    /// - Throws: ``StoreError`` when the file exists but cannot be read or is not a journal.
    package func entries(feed: String) throws -> [String: String?] {
        let path = file(feed)
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { return [:] }
            throw StoreError(path: path, message: "cannot read the credentials set aside for feed '\(feed)'")
        }
        do {
            return try JSONDecoder().decode([String: String?].self, from: data)
        } catch {
            throw StoreError(path: path, message: "the credentials set aside for feed '\(feed)' are not readable JSON")
        }
    }

    /// Sets `credentials` aside for `feed`, merged into what is there, durably.
    package func keep(_ credentials: [String: String?], feed: String) throws {
        guard !credentials.isEmpty else { return }
        try serial.withLock { _ in
            var entries = try entries(feed: feed)
            entries.merge(credentials) { _, new in new }
            try write(entries, feed: feed)
        }
    }

    /// Forgets `credentials` of `feed` once `_state` holds them, unless a newer value was set
    /// aside since.
    package func forget(_ credentials: [String: String?], feed: String) throws {
        try serial.withLock { _ in
            var entries = try entries(feed: feed)
            guard !entries.isEmpty else { return }
            for (key, value) in credentials where entries[key] == value { entries[key] = nil }
            if entries.isEmpty {
                try remove(feed: feed)
            } else {
                try write(entries, feed: feed)
            }
        }
    }

    /// Removes everything set aside for `feed` (the feed was dropped).
    package func forgetAll(feed: String) throws {
        try serial.withLock { _ in try remove(feed: feed) }
    }

    private func file(_ feed: String) -> String {
        folder + "/" + feed.utf8.map { String(format: "%02x", $0) }.joined() + ".json"
    }

    private func write(_ entries: [String: String?], feed: String) throws {
        let path = file(feed)
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try AtomicFile.write(try encoder.encode(entries), to: path, permissions: 0o600)
            try syncFolder()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, message: "cannot set aside the credentials of feed '\(feed)': \(error)")
        }
    }

    private func remove(feed: String) throws {
        let path = file(feed)
        guard unlink(path) == 0 || errno == ENOENT else {
            throw StoreError(
                path: path, message: "cannot remove the credentials set aside: \(String(cString: strerror(errno)))")
        }
    }

    /// Syncs the folder, so that a rename in it outlives a power cut, not just a killed process.
    private func syncFolder() throws {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = fsync(descriptor)
    }
}
