import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1, for tests: each request is answered by a closure that
/// can also make the server misbehave (see ``LoopbackReply``).
///
/// ```swift
/// let server = try LoopbackServer { request in
///     request.path == "/items" ? .json(#"{"items": []}"#) : .status(404)
/// }
/// defer { server.stop() }
/// let url = server.url("/items")   // "http://127.0.0.1:PORT/items"
/// ```
///
/// It listens on a port the system picks, accepts on its own thread and serves each connection
/// on a thread of its own, with keep-alive. The handler runs on those threads, possibly several
/// at once. ``stop()`` (also done on release) closes the listener and every open connection, so
/// the address then refuses connections like a dead server.
public final class LoopbackServer: Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (LoopbackRequest) -> LoopbackReply

    private let core: LoopbackServerCore

    /// A server answering with `handler`, started unless `start` is `false`.
    ///
    /// - Throws: ``LoopbackServerError`` when the socket cannot be set up.
    public init(start: Bool = true, handler: @escaping Handler) throws(LoopbackServerError) {
        core = LoopbackServerCore(handler: handler)
        if start { try core.start() }
    }

    deinit { core.stop() }

    /// Starts listening. Does nothing when already running.
    ///
    /// - Throws: ``LoopbackServerError`` when the socket cannot be set up.
    public func start() throws(LoopbackServerError) { try core.start() }

    /// Starts listening on a given port, e.g. the port of a server that was stopped, to test
    /// what happens when a service comes back.
    public func start(port: Int) throws(LoopbackServerError) { try core.start(port: UInt16(port)) }

    /// Stops accepting, and closes every open connection. Calls after the first do nothing.
    public func stop() { core.stop() }

    /// The port the server listens on (0 before ``start()``).
    public var port: Int { core.port }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The absolute URL of `path` (which should start with `/`) on this server.
    public func url(_ path: String) -> String { baseURL + path }

    /// How many requests have been answered or are being answered.
    public var requestCount: Int { core.requests.count }

    /// The requests received so far, oldest first.
    public var requests: [LoopbackRequest] { core.requests }

    /// How many connections clients have opened so far.
    public var connectionCount: Int { core.connectionCount }
}

/// The server's state and threads, apart from ``LoopbackServer`` so that the threads do not keep
/// the public object alive (its release stops them).
final class LoopbackServerCore: Sendable {
    private struct State {
        var listener: Int32 = -1
        /// After a stop: a socket bound to the old port but not listening, so connections are
        /// refused and no other server of the test run can take the port over.
        var reservation: Int32 = -1
        var port: UInt16 = 0
        var stopped = false
        var connections: Set<Int32> = []
        var accepted = 0
        var requests: [LoopbackRequest] = []
    }

    private let handler: LoopbackServer.Handler
    private let state = Mutex(State())

    init(handler: @escaping LoopbackServer.Handler) { self.handler = handler }

    var port: Int { Int(state.withLock { $0.port }) }
    var requests: [LoopbackRequest] { state.withLock { $0.requests } }
    var connectionCount: Int { state.withLock { $0.accepted } }

    func start(port requested: UInt16 = 0) throws(LoopbackServerError) {
        let running = state.withLock { state in
            let running = state.listener >= 0 && !state.stopped
            if !running, state.reservation >= 0 {
                close(state.reservation)
                state.reservation = -1
            }
            return running
        }
        guard !running else { return }
        let (listener, port) = try LoopbackSocket.listen(port: requested)
        state.withLock {
            $0.listener = listener
            $0.port = port
            $0.stopped = false
        }
        let thread = Thread { [self] in acceptLoop(listener) }
        thread.name = "loopback-accept-\(port)"
        thread.start()
    }

    func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            // Shutdown wakes the threads blocked in accept/recv; each closes its own descriptor.
            if state.listener >= 0 { shutdown(state.listener, Int32(SHUT_RDWR)) }
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop(_ listener: Int32) {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR { continue }
                break
            }
            let admitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.connections.insert(descriptor)
                state.accepted += 1
                return true
            }
            guard admitted else {
                close(descriptor)
                break
            }
            let thread = Thread { [self] in serve(descriptor) }
            thread.start()
        }
        state.withLock { state in
            if state.listener == listener { state.listener = -1 }
        }
        close(listener)
        state.withLock { state in
            if state.stopped, state.reservation < 0 { state.reservation = LoopbackSocket.reserve(port: state.port) }
        }
    }

    deinit {
        state.withLock { state in
            if state.reservation >= 0 { close(state.reservation) }
        }
    }

    private func serve(_ descriptor: Int32) {
        let connection = LoopbackConnection(descriptor: descriptor)
        var reset = false
        while var request = connection.readRequest() {
            let stopped = state.withLock { state in
                request.number = state.requests.count + 1
                state.requests.append(request)
                return state.stopped
            }
            if stopped { break }
            let reply = handler(request)
            let keepAlive = request.header("connection")?.lowercased() != "close"
            if case .resetMidBody = reply.behaviour { reset = true }
            guard connection.write(reply, keepAlive: keepAlive) else { break }
        }
        state.withLock { _ = $0.connections.remove(descriptor) }
        if reset { LoopbackSocket.reset(descriptor) } else { close(descriptor) }
    }
}
