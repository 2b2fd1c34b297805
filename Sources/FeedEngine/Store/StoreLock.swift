import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a store for one `feedwork run` at a time, held through a lock file
/// beside the store (`feeds.sqlite.lock`).
///
/// Readers (`export`, `list`) do not take it: WAL lets them read while a run writes. The lock is
/// released when the process exits, even when it is killed.
public final class StoreLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, waiting up to `wait` for another run to finish.
    ///
    /// - Throws: ``StoreError`` "store in use" when the wait runs out.
    public init(storePath: String, wait: FeedDuration) throws {
        let path = storePath + ".lock"
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(
                path: storePath, message: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(wait.seconds)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                close(descriptor)
                throw StoreError(
                    path: storePath,
                    message:
                        "store in use: another feedwork run holds \(path) (waited \(wait); use --wait to wait longer)")
            }
            usleep(50_000)
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
