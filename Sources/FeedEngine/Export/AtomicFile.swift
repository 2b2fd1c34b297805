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
    public static func write(_ data: Data, to path: String) throws {
        try write(to: path) { output in output.append(data) }
    }

    /// Runs `body` with an output into a temporary file and renames it to `path` when `body`
    /// returns; removes it when `body` throws.
    public static func write<T>(to path: String, _ body: (ExportOutput) throws -> T) throws -> T {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw ExportError.runtime("cannot create a file beside \(path): \(String(cString: strerror(errno)))")
        }
        let temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed {
                close(descriptor)
                unlink(temporaryPath)
            }
        }
        let output = ExportOutput(descriptor: descriptor, name: path)
        let result = try body(output)
        try output.flush()
        // mkstemp makes the file private; give it the permissions a new file normally gets.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        guard fsync(descriptor) == 0 else {
            throw ExportError.runtime("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        committed = true
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw ExportError.runtime("cannot rename \(temporaryPath) to \(path): \(reason)")
        }
        return result
    }
}
