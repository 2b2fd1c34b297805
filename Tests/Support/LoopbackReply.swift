import Foundation

/// How ``LoopbackServer`` answers one request: a normal response, or a scripted misbehaviour.
///
/// Build one with the static helpers: `.json("{}")`, `.text("hi", status: 500)`,
/// `.status(404)`, `.redirect(to: "/next")`, `.gzip(data)`, then `.reset(afterBodyBytes:)`,
/// `.shortBody(declaredLength:)`, `.stalled(for:)` or `.delayed(by:)` to misbehave.
public struct LoopbackReply: Sendable {
    /// What the server does with the response.
    public enum Behaviour: Sendable {
        /// Sends the whole response.
        case normal
        /// Sends the headers (with the full Content-Length) and the first `bytes` of the body,
        /// then resets the connection (TCP RST).
        case resetMidBody(afterBytes: Int)
        /// Declares `declaredLength` in Content-Length, sends the (shorter) body, then closes.
        case shortBody(declaredLength: Int)
        /// Sends the headers, waits `delay`, then sends the body.
        case stall(Duration)
    }

    public var status: Int
    /// Header names and values, in order. `Content-Length` is added unless present.
    public var headers: [(name: String, value: String)]
    public var body: Data
    public var behaviour: Behaviour = .normal
    /// A wait before anything is sent.
    public var delay: Duration = .zero
    /// Closes the connection after this reply (adds `Connection: close`).
    public var closesConnection = false

    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body (`Content-Type: application/json`).
    public static func json(_ text: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, headers: [("Content-Type", "application/json")] + headers, body: Data(text.utf8))
    }

    /// A plain text body.
    public static func text(_ text: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Data(text.utf8))
    }

    /// Raw bytes.
    public static func data(_ body: Data, status: Int = 200, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, headers: headers, body: body)
    }

    /// An empty response with `status` (and a short text body for errors, like real servers).
    public static func status(_ status: Int, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, headers: headers, body: status >= 400 ? Data("\(status)\n".utf8) : Data())
    }

    /// A redirect to `location` (a path or an absolute URL).
    public static func redirect(to location: String, status: Int = 302) -> Self {
        Self(status: status, headers: [("Location", location)])
    }

    /// `body` gzip-encoded, with `Content-Encoding: gzip`.
    public static func gzip(_ body: Data, status: Int = 200, headers: [(name: String, value: String)] = []) -> Self {
        Self(status: status, headers: [("Content-Encoding", "gzip")] + headers, body: Gzip.encode(body))
    }

    /// This reply, cut off by a connection reset after `count` body bytes.
    public func reset(afterBodyBytes count: Int = 0) -> Self {
        with { $0.behaviour = .resetMidBody(afterBytes: count) }
    }

    /// This reply with a Content-Length of `length` (longer than the body), then the connection closed.
    public func shortBody(declaredLength length: Int) -> Self {
        with { $0.behaviour = .shortBody(declaredLength: length) }
    }

    /// This reply with a pause of `duration` between the headers and the body.
    public func stalled(for duration: Duration) -> Self { with { $0.behaviour = .stall(duration) } }

    /// This reply, sent after a wait of `duration`.
    public func delayed(by duration: Duration) -> Self { with { $0.delay = duration } }

    /// This reply with `name: value` added.
    public func header(_ name: String, _ value: String) -> Self { with { $0.headers.append((name, value)) } }

    /// This reply, after which the connection is closed.
    public func closingConnection() -> Self { with { $0.closesConnection = true } }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
