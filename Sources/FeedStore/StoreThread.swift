import Foundation
import Synchronization

/// A thread that runs a store's blocking database jobs one after another: SQLite's one writer,
/// PostgreSQL's write and read connections, and each PostgreSQL pass's transaction.
///
/// Database calls block. Every job of a store goes through such a thread, so none blocks
/// Swift's cooperative threads and no thread is made per job: one-shot writes (each driver's
/// `write`), reads on a connection of their own, and a feed pass's transaction
/// (``FeedTransaction``, which holds the thread until the pass commits or rolls back) queue in
/// order of arrival.
///
/// The thread starts with the first job: a process that only reads never makes it, and one that
/// fetches does not make it while libcurl loads (``CurlHTTPClient/preload()``), when glibc would
/// make it wait for the load to finish.
package final class StoreThread: Sendable {
    private let queue = JobQueue()
    private let label: String
    private let started = Mutex(false)

    package init(label: String) {
        self.label = label
    }

    deinit { queue.close() }

    /// Whether the thread was started, by a first job.
    package var hasStarted: Bool { started.withLock { $0 } }

    /// Queues `job` to run on the writer thread.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        queue.append(job)
        started.withLock { started in
            guard !started else { return }
            started = true
            let queue = self.queue
            let thread = Thread { queue.drain() }
            thread.name = label
            thread.start()
        }
    }

    /// Runs `body` on the writer thread and waits for it without blocking the caller's thread.
    package func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result(catching: body)) }
        }
    }

    /// Jobs waiting for the thread; the thread ends once the queue is closed and empty.
    private final class JobQueue: @unchecked Sendable {
        // `jobs` and `closed` are guarded by `condition`.
        private let condition = NSCondition()
        private var jobs: [@Sendable () -> Void] = []
        private var closed = false

        func append(_ job: @escaping @Sendable () -> Void) {
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        func close() {
            condition.lock()
            closed = true
            condition.signal()
            condition.unlock()
        }

        func drain() {
            while true {
                condition.lock()
                while jobs.isEmpty && !closed { condition.wait() }
                if jobs.isEmpty {
                    condition.unlock()
                    return
                }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
    }
}
