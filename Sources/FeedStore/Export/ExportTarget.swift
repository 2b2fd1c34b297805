import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `export --output PATH` writes, decided (and checked) before anything is written.
///
/// - `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` are the process's own
///   descriptors, written in place.
/// - A FIFO, a character or a block device is opened and written in place (`/dev/null`,
///   `/dev/full`, a named pipe): there is no file to replace atomically.
/// - Anything else is a regular file, written atomically (``AtomicFile``). A symlink is followed,
///   so its target is replaced and the link stays a link.
///
/// Refused, before anything is written: the store itself or any of its files (`-wal`, `-shm`,
/// `-journal`, `.lock`), compared by device and inode so a symlink or hard link to them is
/// caught too, even with `force`; a SQLite database unless `force`; a folder; a symlink loop.
public enum ExportTarget: Equatable, Sendable {
    /// An open descriptor of this process (1 for standard output).
    case descriptor(Int32, name: String)
    /// A FIFO or device file, written in place.
    case special(path: String)
    /// A regular file (new or replaced atomically), symlinks resolved.
    case file(path: String)

    /// Standard output or another descriptor of the process (where a summary line would mix
    /// with the data).
    public var isOwnDescriptor: Bool {
        if case .descriptor = self { return true }
        return false
    }

    /// The first 16 bytes of every SQLite 3 database file.
    package static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Decides where `output` goes, refusing targets that would destroy the store at
    /// `storePath` or (unless `force`) another SQLite database.
    public static func resolve(_ output: String, storePath: String, force: Bool) throws(ExportError) -> ExportTarget {
        if output == "-" { return .descriptor(1, name: "standard output") }
        if let descriptor = ownDescriptor(output) { return .descriptor(descriptor, name: output) }
        let path = try followLinks(output)
        let shown = path == output ? output : "\(output) (a link to \(path))"
        let storeProblem: ExportError = .usage(
            "--output \(shown) is the store \(storePath) or one of its files; writing there would destroy the store (choose another file)"
        )
        var info = stat()
        guard stat(path, &info) == 0 else {
            // A new file, unless it is where SQLite would look for the store's journal or WAL.
            if isStoreCompanion(path, storePath: storePath) { throw storeProblem }
            return .file(path: path)
        }
        if FileIdentity.storeFiles(storePath).contains(FileIdentity(info)) { throw storeProblem }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw .usage("--output \(shown) is a folder; give a file name (or use --all --output-dir)")
        case S_IFIFO, S_IFCHR, S_IFBLK:
            return .special(path: path)
        case S_IFREG:
            if !force && isSQLiteDatabase(path) {
                throw .usage("--output \(shown) is a SQLite database; use --force to replace it with the export")
            }
            return .file(path: path)
        default:
            throw .usage("--output \(shown) is neither a regular file, a FIFO nor a device; choose another file")
        }
    }

    /// Runs `body` with an output to this target and returns its result; a regular file
    /// appears complete or not at all.
    public func write<T>(_ body: (ExportOutput) async throws -> T) async throws -> T {
        switch self {
        case .file(let path):
            let file = try AtomicFile.Pending(path)
            let result: T
            do {
                result = try await body(file.output)
                try file.sync()
            } catch {
                file.discard()
                throw error
            }
            try file.putInPlace()
            return result
        case .descriptor(let descriptor, let name):
            let output = ExportOutput(descriptor: descriptor, name: name)
            let result = try await body(output)
            try output.flush()
            return result
        case .special(let path):
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ExportError.runtime("cannot open \(path) for writing: \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            let output = ExportOutput(descriptor: descriptor, name: path)
            let result = try await body(output)
            try output.flush()
            return result
        }
    }

    /// `/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/2`...: the descriptor they stand for.
    package static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), number >= 0, fcntl(number, F_GETFD) != -1 {
                    return number
                }
            }
            return nil
        }
    }

    /// `path` with every symlink of its last component followed (a dangling link gives the
    /// missing file it points to, as a shell's `>` would create it).
    package static func followLinks(_ path: String) throws(ExportError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &target, target.count - 1)
            guard length >= 0 else {
                throw .runtime("cannot read the link \(current): \(String(cString: strerror(errno)))")
            }
            let destination = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        throw .usage("--output \(path) is a loop of symbolic links; choose another file")
    }

    /// Whether the missing file `path` is named like a file the store at `storePath` keeps beside
    /// it (`-wal`, `-journal`...), comparing resolved folders.
    package static func isStoreCompanion(_ path: String, storePath: String) -> Bool {
        func resolvedFolder(_ file: String) -> String? {
            let url = URL(fileURLWithPath: file)
            guard let folder = realpath(url.deletingLastPathComponent().path, nil) else { return nil }
            defer { free(folder) }
            return String(cString: folder) + "/" + url.lastPathComponent
        }
        guard let target = resolvedFolder(path) else { return false }
        var stores = [storePath]
        if let resolved = realpath(storePath, nil) {
            stores.append(String(cString: resolved))
            free(resolved)
        }
        return stores.compactMap(resolvedFolder).contains { store in
            ["", "-wal", "-shm", "-journal", ".lock"].contains { store + $0 == target }
        }
    }

    /// Whether the regular file at `path` starts with the SQLite 3 header.
    package static func isSQLiteDatabase(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: sqliteHeader.count)
        let count = read(descriptor, &header, header.count)
        return count == header.count && header == sqliteHeader
    }
}
