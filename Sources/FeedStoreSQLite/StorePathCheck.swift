import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks the store path of a config before anything opens it: a folder, a device, a FIFO or a
/// symlink loop would only fail later with a bare SQLite error, after SQLite or the run lock
/// had created files beside it.
package enum StorePathCheck {
    /// What is wrong with `path` as a store, or nil when it is a regular file or does not exist
    /// yet (it is then created by the first run).
    package static func problem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case ENOENT:
                return nil
            case ELOOP:
                return "the store \(path) is a loop of symbolic links; give a file path"
            case ENOTDIR:
                return "the store \(path) is below something that is not a folder"
            default:
                return "the store \(path) cannot be checked: \(String(cString: strerror(errno)))"
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return nil
        case S_IFDIR:
            return "the store \(path) is a folder; give a file path such as \(path)/feeds.sqlite"
        case S_IFCHR, S_IFBLK:
            return "the store \(path) is a device, not a file; give a file path"
        case S_IFIFO:
            return "the store \(path) is a FIFO, not a file; give a file path"
        default:
            return "the store \(path) is not a regular file; give a file path"
        }
    }
}
