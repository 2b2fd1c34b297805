import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The worker's HTTP endpoint (`feedwork worker --metrics HOST:PORT`): `GET /metrics` in
/// Prometheus's text format, and `GET /healthz`, 200 `ok` while the worker is well and 503 with
/// the reason while it stops or cannot reach its store.
public struct MetricsServer: Sendable {
    public var address: ListenAddress
    public var metrics: WorkerMetrics
    public var logger: Logger

    public init(address: ListenAddress, metrics: WorkerMetrics, logger: Logger) {
        self.address = address
        self.metrics = metrics
        self.logger = logger
    }

    /// Serves while `work` runs, then shuts the server down gracefully and returns what `work`
    /// returned.
    ///
    /// - Parameter listening: called once with the address the server listens on (its port
    ///   chosen by the system when ``address`` asks for port 0).
    /// - Throws: what `work` throws; when the address cannot be bound, that error, after
    ///   cancelling `work`.
    public func serve<T: Sendable>(
        listening: @escaping @Sendable (ListenAddress) async -> Void,
        during work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let router = Router()
        let metrics = metrics
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        router.get("healthz") { _, _ -> Response in
            let problem = metrics.problem
            return Response(
                status: problem == nil ? .ok : .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: (problem ?? "ok") + "\n")))
        }
        let host = address.host
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: address.binding, serverName: "feedwork"),
            onServerRunning: { channel in
                await listening(ListenAddress(host: host, port: channel.localAddress?.port ?? 0))
            }, logger: logger)
        return try await application.run(during: work, logger: logger)
    }
}
