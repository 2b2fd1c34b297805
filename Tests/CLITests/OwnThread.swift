import Foundation

/// Blocking work (waiting for a process, reading its pipes) on a thread of its own.
///
/// Swift's concurrency runs every test of the process on a pool of as many threads as the
/// machine has cores: two on CI. A test that blocks one of them while a `feedwork` process runs
/// holds back every other test's tasks, and two such tests stop them all (a worker test in the
/// same process saw no pass for 60 s). So the CLI tests are `async` and wait here instead.
enum OwnThread {
    /// `work`'s result, computed on a new thread while the caller's task is suspended.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// `work`'s result or error, computed on a new thread while the caller's task is suspended.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

extension Process {
    /// Waits for the process to end without holding a thread of the concurrency pool.
    func exited() async {
        await OwnThread.run { self.waitUntilExit() }
    }
}
