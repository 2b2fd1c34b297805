import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A buffered byte sink for export writers: a file descriptor (stdout or a file) or memory.
///
/// Writers append bytes; the buffer goes to the descriptor whenever it passes 64 KiB, so an
/// export holds one buffer whatever the number of rows.
public final class ExportOutput {
    private enum Destination {
        case descriptor(Int32, name: String)
        case memory
    }

    private static let flushThreshold = 64 * 1024

    private let destination: Destination
    private var buffer: [UInt8] = []
    private var collected: [UInt8] = []

    /// Writes to an open descriptor (not closed by the output). `name` appears in errors.
    public init(descriptor: Int32, name: String) {
        destination = .descriptor(descriptor, name: name)
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Standard output.
    public static func standardOutput() -> ExportOutput { ExportOutput(descriptor: 1, name: "standard output") }

    /// Collects everything in memory, for tests and small outputs.
    public static func memory() -> ExportOutput { ExportOutput() }

    private init() { destination = .memory }

    /// Everything written so far, for a memory output (after ``flush()``).
    public var bytes: [UInt8] { collected + buffer }

    @inline(__always)
    package func append(_ byte: UInt8) { buffer.append(byte) }

    package func append(_ bytes: some Collection<UInt8>) { buffer.append(contentsOf: bytes) }

    package func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// Flushes when the buffer is large; called after each row.
    package func flushIfNeeded() throws(ExportError) {
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes out everything buffered.
    public func flush() throws(ExportError) {
        switch destination {
        case .memory:
            collected += buffer
        case .descriptor(let descriptor, let name):
            var failure: Int32 = 0
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += written
                }
            }
            if failure != 0 {
                throw .runtime("cannot write to \(name): \(String(cString: strerror(failure)))")
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
