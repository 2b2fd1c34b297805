import Hummingbird

/// Where one of Feedwork's HTTP servers listens: a host and a port, written `host:port`
/// (`127.0.0.1:9464`, `[::1]:9464`, `localhost:8080`).
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`; a bracketed IPv6 host keeps its colons.
    ///
    /// - Returns: `nil` when `text` has no host, or its port is not a number from 0 to 65535
    ///   (0 asks the system for a free port).
    public init?(parsing text: String) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(":") || text.hasPrefix("["), let number = Int(port),
            (0...65535).contains(number)
        else { return nil }
        self.init(host: String(host), port: number)
    }

    /// Whether only this machine can reach the address.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The address as Hummingbird binds it.
    var binding: BindAddress { .hostname(host, port: port) }
}
