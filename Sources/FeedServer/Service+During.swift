import Logging
import ServiceLifecycle

extension Service {
    /// Runs this service (an HTTP server) while `work` runs, then shuts it down gracefully and
    /// returns what `work` returned.
    ///
    /// - Throws: what `work` throws; when the service fails (an address that cannot be bound),
    ///   that error, after cancelling `work`.
    func run<T: Sendable>(during work: @escaping @Sendable () async throws -> T, logger: Logger) async throws -> T {
        let group = serviceGroup(named: "server", logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            tasks.addTask { try await work() }
            defer { tasks.cancelAll() }
            while let finished = try await tasks.next() {
                guard let result = finished else { continue }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            }
            throw CancellationError()
        }
    }
}
