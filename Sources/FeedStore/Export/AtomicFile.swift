import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file that appears complete or not at all: written to `FILE.tmp-XXXXXX` in the same folder,
/// then renamed over `FILE` once everything was written and synced.
///
/// A failed write removes the temporary file, so an existing `FILE` is left as it was. (A process
/// killed mid-write may leave its `.tmp-` file behind, never a half `FILE`.)
public enum AtomicFile {
    /// Writes `data` to `path` as a whole or not at all.
    ///
    /// - Parameter permissions: the file's mode; by default what a new file gets (`0666` less
    ///   the umask).
    public static func write(_ data: Data, to path: String, permissions: mode_t? = nil) throws {
        try write(to: path, permissions: permissions) { output in output.append(data) }
    }

    /// Runs `body` with an output into a temporary file and renames it to `path` when `body`
    /// returns; removes it when `body` throws.
    ///
    /// - Parameter permissions: the file's mode; by default what a new file gets (`0666` less
    ///   the umask).
    public static func write<T>(
        to path: String, permissions: mode_t? = nil, _ body: (ExportOutput) throws -> T
    ) throws -> T {
        let file = try Pending(path)
        let result: T
        do {
            result = try body(file.output)
            try file.sync(permissions: permissions)
        } catch {
            file.discard()
            throw error
        }
        try file.putInPlace()
        return result
    }

    /// A temporary file beside `path` being written (``write(to:_:)``): ``sync()`` then
    /// ``putInPlace()`` put it in place, ``discard()`` removes it.
    package struct Pending {
        package let path: String
        package let temporaryPath: String
        package let descriptor: Int32
        package let output: ExportOutput

        package init(_ path: String) throws {
            var template = Array((path + ".tmp-XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                throw ExportError.runtime("cannot create a file beside \(path): \(String(cString: strerror(errno)))")
            }
            self.path = path
            self.descriptor = descriptor
            temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            output = ExportOutput(descriptor: descriptor, name: path)
        }

        /// Flushes the output and syncs the file, with `permissions` or else those a new file gets.
        package func sync(permissions: mode_t? = nil) throws {
            try output.flush()
            if let permissions {
                fchmod(descriptor, permissions)
            } else {
                // mkstemp makes the file private; give it the permissions a new file normally gets.
                let mask = umask(0)
                umask(mask)
                fchmod(descriptor, 0o666 & ~mask)
            }
            guard fsync(descriptor) == 0 else {
                throw ExportError.runtime("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }

        /// Closes the synced file and renames it to `path`; removes it when that fails.
        package func putInPlace() throws {
            close(descriptor)
            guard rename(temporaryPath, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporaryPath)
                throw ExportError.runtime("cannot rename \(temporaryPath) to \(path): \(reason)")
            }
        }

        /// Closes and removes the temporary file.
        package func discard() {
            close(descriptor)
            unlink(temporaryPath)
        }
    }
}
