import FeedTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client that asks for a URL, reads the first bytes of the answer and then reads no more,
/// holding the connection open: the slowest client there is.
///
/// Its socket calls block, so ``open(port:path:)`` makes it on a Dispatch thread: on Swift's
/// cooperative threads (two on a 2-core machine) two of them would stall the server they wait for.
final class StalledClient: @unchecked Sendable {
    private let descriptor: Int32
    /// The bytes read before stalling.
    let head: String

    /// Connects to 127.0.0.1:`port`, sends `GET path` and reads at most `bytes` bytes, off
    /// Swift's cooperative threads.
    static func open(port: Int, path: String) async throws -> StalledClient {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try StalledClient(port: port, path: path) })
            }
        }
    }

    private init(port: Int, path: String, reading bytes: Int = 1024) throws {
        let descriptor = try LoopbackClient.connect(port: port) { descriptor in
            // A small receive buffer, so that the server's writes stop soon.
            var size: Int32 = 4096
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            // Never wait for the answer's first bytes forever.
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: bytes)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, bytes, 0) }
        head = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        self.descriptor = descriptor
    }

    private var isOpen = true

    /// Hangs up.
    func hangUp() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
    }

    deinit { hangUp() }
}
