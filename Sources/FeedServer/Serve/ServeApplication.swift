import FeedEngine
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// `feedwork serve`: the web pages and the JSON API over a store, read-only.
///
/// ```swift
/// let server = ServeApplication(settings: settings)
/// try await server.application().runService()
/// ```
public struct ServeApplication: Sendable {
    /// The most connections served at once; more wait in the listen queue.
    public static let maximumConnections = 512
    /// The most connections one client (an IP address) keeps open: past it, a new connection
    /// replaces the client's oldest one that waits for a request (``ClientConnections``).
    public static let connectionsPerClient = 32
    /// How long a connection may take to send a request's head, from when it opens or its last
    /// answer ended (``RequestDeadlineHandler``).
    public static let requestHeadTimeout = Duration.seconds(10)

    public let settings: ServeSettings

    public init(settings: ServeSettings) { self.settings = settings }

    /// The router with every page and API route (each answering `HEAD` as its `GET` without
    /// the body), behind ``HeadersMiddleware`` and ``GuardMiddleware``.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.middlewares.add(HeadersMiddleware())
        router.middlewares.add(GuardMiddleware(token: settings.token))
        router.middlewares.add(NotFoundMiddleware())
        HealthRoute(browser: settings.browser).add(to: router)
        APIRoutes(settings: settings).add(to: router)
        PageRoutes(settings: settings).add(to: router)
        SQLRoutes(settings: settings).add(to: router)
        MCPRoute(settings: settings).add(to: router)
        SQLPage(settings: settings).add(to: router)
        return router
    }

    /// The server, ready to run; `onServerRunning` learns the port it listens on (the system
    /// picks one for port 0).
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        Self.application(responder: router().buildResponder(), at: settings.address, onServerRunning: onServerRunning)
    }

    /// The server answering with `responder` on `address`: its connection limits, timeouts and
    /// handlers.
    static func application<Responder: HTTPResponder>(
        responder: Responder, at address: ListenAddress, onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol where Responder.Context == BasicRequestContext {
        var logger = Logger(label: "feedwork.serve")
        logger.logLevel = .warning
        let connections = ClientConnections(perClient: Self.connectionsPerClient)
        let headTimeout = TimeAmount(Self.requestHeadTimeout)
        return Application(
            responder: responder,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [RequestDeadlineHandler(connections: connections, timeout: headTimeout)],
                    idleTimeout: .seconds(30),
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))),
            configuration: .init(
                address: address.binding, serverName: "feedwork",
                availableConnectionsDelegate: MaximumAvailableConnections(Self.maximumConnections)),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}

extension ServeApplication {
    /// Serves while `work` runs, then shuts the server down gracefully and returns what `work`
    /// returned.
    ///
    /// - Parameter listening: called once with the port the server listens on.
    public func serve<T: Sendable>(
        listening: @escaping @Sendable (Int) async -> Void, during work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "feedwork.serve")
        logger.logLevel = .warning
        return try await application(onServerRunning: listening).run(during: work, logger: logger)
    }
}

/// A JSON answer.
func jsonResponse(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
        status: status, headers: [.contentType: "application/json; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: text.hasSuffix("\n") ? text : text + "\n")))
}
