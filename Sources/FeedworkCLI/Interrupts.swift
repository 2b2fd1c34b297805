import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C during a command that writes the store.
///
/// The first interrupt cancels the work: feeds in progress stop at their next request, roll back
/// and are recorded as `interrupted` at once; feeds not started are left alone. A second
/// interrupt exits at once with 130; SQLite rolls back what was not committed either way, and
/// the next run marks what is left `running` as `interrupted`.
enum Interrupts {
    /// The exit status of a command stopped by an interrupt (128 + SIGINT), as shells expect.
    static let exitStatus: Int32 = 130

    /// Runs `work`, cancelling it on the first SIGINT after calling `onFirst`.
    ///
    /// - Returns: what `work` returned, and whether an interrupt came.
    static func cancelling<T: Sendable>(
        _ work: @escaping @Sendable () async -> T, onFirst: @escaping @Sendable () -> Void
    ) async -> (value: T, interrupted: Bool) {
        let task = Task { await work() }
        let count = Counter()
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if count.increment() == 1 {
                onFirst()
                task.cancel()
            } else {
                exit(exitStatus)
            }
        }
        source.resume()
        let value = await task.value
        source.cancel()
        signal(SIGINT, SIG_DFL)
        return (value, count.value > 0)
    }

    private final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func increment() -> Int { count.add(1, ordering: .relaxed).newValue }
        var value: Int { count.load(ordering: .relaxed) }
    }
}
