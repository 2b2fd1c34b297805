import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file is, whatever the name it is reached by: its device and inode.
///
/// Two paths name the same file (through a symlink, a hard link, `..` or a bind mount) exactly
/// when their identities are equal, so comparisons that protect the store use these, never names.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    /// The identity of the file at `path`, following symlinks; nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The identities of the store at `storePath` and of every file SQLite and Feedwork keep
    /// beside it (`-wal`, `-shm`, `-journal`), under its own name and its resolved one.
    public static func storeFiles(_ storePath: String) -> Set<FileIdentity> {
        var names = [storePath]
        if let resolved = realpath(storePath, nil) {
            names.append(String(cString: resolved))
            free(resolved)
        }
        var identities = Set<FileIdentity>()
        for name in names {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                if let identity = FileIdentity(path: name + suffix) { identities.insert(identity) }
            }
        }
        return identities
    }
}
