import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why ``LoopbackServer`` could not start.
public struct LoopbackServerError: Error, Sendable, CustomStringConvertible {
    /// The system call that failed.
    public var operation: String
    public var errno: Int32

    public var description: String {
        "loopback server: \(operation) failed: \(String(cString: strerror(errno)))"
    }
}

/// Thin wrappers over the POSIX socket calls the loopback server uses.
enum LoopbackSocket {
    /// A socket bound to 127.0.0.1:`port` that does not listen (connections are refused), or -1.
    static func reserve(port: UInt16) -> Int32 {
        (try? bound(port: port)) ?? -1
    }

    /// A TCP socket listening on 127.0.0.1 at `port` (0: a port the system picks), and that port.
    static func listen(port: UInt16 = 0) throws(LoopbackServerError) -> (descriptor: Int32, port: UInt16) {
        let descriptor = try bound(port: port)
        guard Glibc.listen(descriptor, 64) == 0 else {
            let error = LoopbackServerError(operation: "listen", errno: errno)
            close(descriptor)
            throw error
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = LoopbackServerError(operation: "getsockname", errno: errno)
            close(descriptor)
            throw error
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// A TCP socket bound to 127.0.0.1:`port` (with SO_REUSEADDR), not yet listening.
    private static func bound(port: UInt16) throws(LoopbackServerError) -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LoopbackServerError(operation: "socket", errno: errno) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = LoopbackServerError(operation: "bind", errno: errno)
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Sends all of `data`; `false` when the peer has gone.
    @discardableResult
    static func send(_ descriptor: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return false }
                let sent = Glibc.send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Closes with a TCP reset instead of an orderly shutdown.
    static func reset(_ descriptor: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(descriptor)
    }
}
