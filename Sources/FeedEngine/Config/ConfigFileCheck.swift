import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What kind of file a config path names, before it is read: Foundation reads a device such as
/// `/dev/null` as a permission error, which sends a user looking at the wrong thing.
enum ConfigFileCheck {
    /// What is wrong with the existing `path` as a config file: a device or a socket; nil
    /// otherwise (a regular file, or a FIFO such as a shell's `<(...)`, is read).
    static func problem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFCHR, S_IFBLK:
            return "\(path) is a device, not a config file; give a YAML file such as feeds.yaml "
                + "(`feedwork init` writes one)"
        case S_IFSOCK:
            return "\(path) is a socket, not a config file; give a YAML file such as feeds.yaml"
        default:
            return nil
        }
    }
}
