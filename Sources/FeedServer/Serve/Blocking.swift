import Dispatch

/// Runs the store's blocking reads on Dispatch's threads, never on the server's event loops
/// or Swift's cooperative pool, so a slow statement delays only its own request.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    /// Runs `body`, a read of the store, as ``run(_:)`` does, with its error as the answer
    /// (``ServeError/from(_:)``).
    static func read<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws(ServeError) -> T {
        do {
            return try await run(body)
        } catch {
            throw ServeError.from(error)
        }
    }
}
