import FeedKit
import Foundation

/// One transfer waiting for a worker thread, and where its result goes.
struct CurlJob: Sendable {
    let request: HTTPRequest
    let cancellation: CurlCancellation
    let complete: @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
}

/// The jobs shared by ``CurlHTTPClient``'s worker threads, first in, first out, and how many
/// threads there are: one more whenever a job would otherwise wait, up to `maxWorkers`.
///
/// A feed fetching two pages at a time thus runs two threads, not the client's eight.
///
/// `@unchecked Sendable`: every access to the mutable state holds `condition`'s lock, and
/// workers wait on that condition, which `Mutex` cannot do.
final class CurlWorkQueue: @unchecked Sendable {
    /// What ``submit(_:)`` did with a job.
    enum Submission {
        /// Queued; an idle worker takes it.
        case queued
        /// Queued, and every worker is busy: the caller starts one more (already counted),
        /// which takes it.
        case queuedNeedsWorker
        /// The queue is closed.
        case refused
    }

    let maxWorkers: Int
    private let condition = NSCondition()
    private var jobs: [CurlJob] = []
    private var head = 0
    private var closed = false
    private var workers = 0
    private var idleWorkers = 0

    init(maxWorkers: Int) {
        self.maxWorkers = max(1, maxWorkers)
    }

    /// Queues `job`, and says whether a worker must be started for it.
    func submit(_ job: CurlJob) -> Submission {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return .refused }
        jobs.append(job)
        condition.signal()
        // Jobs not yet taken that the idle workers cannot all take.
        guard jobs.count - head > idleWorkers, workers < maxWorkers else { return .queued }
        workers += 1
        return .queuedNeedsWorker
    }

    /// The next job, waiting for one; `nil` once the queue is closed and drained.
    func next() -> CurlJob? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !closed {
            idleWorkers += 1
            condition.wait()
            idleWorkers -= 1
        }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }

    /// The worker threads started so far.
    var workerCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return workers
    }

    /// Lets the workers finish the queued jobs and then stop.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
