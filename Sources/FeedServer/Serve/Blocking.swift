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
}
