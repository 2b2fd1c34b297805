import FeedKit
import FeedStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a store for one `feedwork run` at a time: a `flock` on the store file
/// itself, so it belongs to the file (its device and inode), not to the name it is reached by.
/// A run through a symlink or a hard link to the store waits for, or is refused by, a run
/// through any other name.
///
/// Readers (`export`, `list`) do not take it: WAL lets them read while a run writes. The lock is
/// released when the process exits, even when it is killed.
///
/// `flock` locks are separate from the POSIX locks SQLite takes on the same file. Closing any
/// descriptor of the file would drop SQLite's POSIX locks in this process, so the lock's
/// descriptor is unlocked on release but never closed: the process's exit closes it (one
/// descriptor per lock taken, and a process takes one).
public final class SQLiteStoreLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, creating an empty store file when there is none, waiting up to `wait`
    /// for another run to finish.
    ///
    /// - Throws: ``StoreError`` "store in use" when the wait runs out, or when the store file
    ///   cannot be opened for writing (a folder, a read-only file).
    public init(storePath: String, wait: FeedDuration) throws {
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: storePath).deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(storePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(
                path: storePath, message: "cannot open the store for writing: \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(wait.seconds)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                let holder = StoreHolder.recorded(forStore: storePath)?.description
                throw StoreError(
                    path: storePath,
                    message: "store in use: "
                        + (holder.map { "\($0) holds it" }
                            ?? "another feedwork process holds it, possibly through another name")
                        + " (waited \(wait); use --wait to wait longer)")
            }
            usleep(50_000)
        }
        self.descriptor = descriptor
    }

    /// Unlocks; the descriptor stays open until the process exits (see the type's notes).
    deinit { flock(descriptor, LOCK_UN) }
}
