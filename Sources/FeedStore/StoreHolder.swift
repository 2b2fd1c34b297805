import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which process holds a SQLite store's lock (`SQLiteStoreLock`): written beside the store, as
/// `<store>-holder`, by the process that takes the lock, and removed when it closes the store.
///
/// Another process that finds the store in use reads it to say by what ("a feedwork worker,
/// pid 4242 on box-1, since 2026-11-26T05:40:12Z"), and `feedwork run` to hand its feeds to a
/// worker instead of waiting for it (``RunRequests``). A killed process leaves its file behind:
/// it is believed only while the store's lock is held and, on this host, while its process lives.
public struct StoreHolder: Codable, Sendable, Equatable {
    /// What holds the store.
    public enum Kind: String, Codable, Sendable {
        /// `feedwork run`, or any other one-off pass (a test harness, a replay).
        case run
        /// `feedwork worker`, which takes feeds to run from ``RunRequests``.
        case worker
    }

    public var kind: Kind
    public var pid: Int32
    public var host: String
    /// When it took the lock, ISO 8601 UTC.
    public var since: String
    /// The worker's name (`--name`), for a worker.
    public var name: String?

    /// This process, holding the store as `kind` from now.
    public init(kind: Kind, name: String? = nil) {
        self.kind = kind
        pid = ProcessInfo.processInfo.processIdentifier
        host = ProcessInfo.processInfo.hostName
        since = Timestamp.string(Date())
        self.name = name
    }

    /// "a feedwork worker (pid 4242 on box-1, since 2026-11-26T05:40:12Z)".
    public var description: String {
        let what = kind == .worker ? "a feedwork worker" : "a feedwork run"
        let named = name.map { " '\($0)'" } ?? ""
        return "\(what)\(named) (pid \(pid) on \(host), since \(since))"
    }

    /// The holder file of the store at `storePath`: beside the store's resolved path, so a
    /// symlink to the store finds the same file.
    package static func path(forStore storePath: String) -> String {
        StoreSidecar.resolved(storePath) + "-holder"
    }

    /// Records this holder for the store at `storePath` (atomically: a reader sees the old
    /// holder or this one). A failure is left unsaid: the file only helps messages.
    package func record(forStore storePath: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? AtomicFile.write(data, to: Self.path(forStore: storePath))
    }

    /// Removes the holder file of the store at `storePath` when it names this process.
    package static func forget(forStore storePath: String) {
        let path = path(forStore: storePath)
        guard let holder = read(path), holder.pid == ProcessInfo.processInfo.processIdentifier,
            holder.host == ProcessInfo.processInfo.hostName
        else { return }
        unlink(path)
    }

    /// The holder of the store at `storePath` while its lock is held, as its file says; nil
    /// when the lock is free, or the file is missing or names a process of this host that is
    /// gone. Only for a process that has not opened the store (see ``StoreSidecar/isLocked(_:)``).
    public static func current(forStore storePath: String) -> StoreHolder? {
        guard StoreSidecar.isLocked(storePath) else { return nil }
        return recorded(forStore: storePath)
    }

    /// The holder the file of the store at `storePath` names, unless it names a process of this
    /// host that is gone; for a process that found the lock held.
    package static func recorded(forStore storePath: String) -> StoreHolder? {
        guard let holder = read(path(forStore: storePath)) else { return nil }
        if holder.host == ProcessInfo.processInfo.hostName, kill(holder.pid, 0) != 0, errno == ESRCH { return nil }
        return holder
    }

    private static func read(_ path: String) -> StoreHolder? {
        FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(StoreHolder.self, from: $0) }
    }
}

/// The files Feedwork keeps beside a SQLite store, and a look at its lock without taking it.
package enum StoreSidecar {
    /// `storePath` with its symlinks resolved (as is when it does not exist).
    package static func resolved(_ storePath: String) -> String {
        guard let resolved = realpath(storePath, nil) else { return storePath }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether another process holds the store's lock (`SQLiteStoreLock`): a shared `flock` that
    /// cannot be had. Only for a process that has not opened the store with SQLite: closing the
    /// descriptor would drop SQLite's own locks of this process on the file.
    package static func isLocked(_ storePath: String) -> Bool {
        let descriptor = open(storePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}
