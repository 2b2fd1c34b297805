import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One accepted connection: reads requests one after another (keep-alive) and writes replies.
///
/// Used only by its own thread.
final class LoopbackConnection {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next request, or `nil` when the peer closed the connection or sent garbage.
    func readRequest() -> LoopbackRequest? {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = firstIndex(of: separator)
            if headEnd == nil && !fill() { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + separator.count)

        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            LoopbackSocket.send(descriptor, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while buffer.count < length {
            if !fill() { return nil }
        }
        let body = Data(buffer[..<length])
        buffer.removeFirst(length)
        return LoopbackRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    /// Writes `reply` as `reply.behaviour` says. Returns whether the connection can be used again.
    func write(_ reply: LoopbackReply, keepAlive: Bool) -> Bool {
        if reply.delay > .zero { Thread.sleep(forTimeInterval: reply.delay.timeInterval) }
        let keepOpen = keepAlive && !reply.closesConnection
        var declaredLength = reply.body.count
        if case .shortBody(let length) = reply.behaviour { declaredLength = length }

        var head = "HTTP/1.1 \(reply.status) \(Self.reason(for: reply.status))\r\n"
        for (name, value) in reply.headers { head += "\(name): \(value)\r\n" }
        if !reply.headers.contains(where: { $0.name.lowercased() == "content-length" }) {
            head += "Content-Length: \(declaredLength)\r\n"
        }
        if !keepOpen { head += "Connection: close\r\n" }
        head += "\r\n"
        guard LoopbackSocket.send(descriptor, Data(head.utf8)) else { return false }

        switch reply.behaviour {
        case .normal:
            return LoopbackSocket.send(descriptor, reply.body) && keepOpen
        case .resetMidBody(let count):
            LoopbackSocket.send(descriptor, reply.body.prefix(count))
            Thread.sleep(forTimeInterval: 0.02)  // let the partial body reach the client first
            return false
        case .shortBody:
            LoopbackSocket.send(descriptor, reply.body)
            return false
        case .stall(let duration):
            Thread.sleep(forTimeInterval: duration.timeInterval)
            return LoopbackSocket.send(descriptor, reply.body) && keepOpen
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
    }

    private func firstIndex(of pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start] == pattern[0] {
            if Array(buffer[start..<start + pattern.count]) == pattern { return start }
        }
        return nil
    }

    private static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

extension Duration {
    /// The duration in seconds, for `Thread.sleep`.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
