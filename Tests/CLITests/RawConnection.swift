import FeedTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to a server on 127.0.0.1 that sends only what the test says: an idle
/// client (it sends nothing) or a slow one (its request a few bytes at a time).
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port` (the kernel completes the handshake even before the
    /// server accepts).
    init(port: Int) throws {
        descriptor = try LoopbackClient.connect(port: port)
    }

    deinit { close(descriptor) }

    /// Sends `text`; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } >= 0
    }

    /// Whether the server has closed the connection (its end read, or a reset), without waiting.
    var isClosedByServer: Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }
}
