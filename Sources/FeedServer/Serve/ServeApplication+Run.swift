import Hummingbird

extension ServeApplication {
    /// `feedwork serve`: listens on `address` at once and serves until SIGTERM or SIGINT, then
    /// shuts down gracefully.
    ///
    /// The server starts (SwiftNIO's event loops, a thread a core, and Hummingbird's services)
    /// and binds while `prepare` makes the settings (reads the config, opens the store) on the
    /// other core, instead of after; a request that comes meanwhile waits for them and is then
    /// answered as any other (``PendingResponder``).
    ///
    /// - Parameters:
    ///   - prepare: the settings, for `address`; checked with ``ServeSettings/problem(address:token:)``
    ///     before, as nothing answers until it returns. What it throws ends the server and is
    ///     thrown.
    ///   - ready: called once the settings are made and the server listens, with the port.
    /// - Throws: what `prepare` throws, or the server's error (an address that cannot be bound).
    public static func run(
        at address: ListenAddress, preparing prepare: @escaping @Sendable () async throws -> ServeSettings,
        ready: @escaping @Sendable (ServeSettings, Int) -> Void
    ) async throws {
        let pending = PendingResponder()
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                let app = application(responder: pending, at: address) { port in
                    listening.yield(port)
                    listening.finish()
                }
                try await app.serviceGroup(
                    named: "feedwork serve", gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger
                ).run()
            }
            tasks.addTask {
                let settings = try await prepare()
                pending.serve(with: ServeApplication(settings: settings).router().buildResponder())
                var next = ports.makeAsyncIterator()
                guard let port = await next.next() else { return }
                ready(settings, port)
            }
            defer { tasks.cancelAll() }
            // The server returns once shut down; the settings' task once ready was called.
            while try await tasks.next() != nil {}
        }
    }
}
