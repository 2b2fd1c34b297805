import FeedKit
import Foundation

/// One transfer waiting for a worker thread, and where its result goes.
struct CurlJob: Sendable {
    let request: HTTPRequest
    let cancellation: CurlCancellation
    let complete: @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
}

/// The jobs shared by ``CurlHTTPClient``'s worker threads, first in, first out.
///
/// `@unchecked Sendable`: every access to `jobs` and `closed` holds `condition`'s lock, and
/// workers wait on that condition, which `Mutex` cannot do.
final class CurlWorkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [CurlJob] = []
    private var head = 0
    private var closed = false

    /// Queues `job`. Returns `false` when the queue is closed.
    func submit(_ job: CurlJob) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// The next job, waiting for one; `nil` once the queue is closed and drained.
    func next() -> CurlJob? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !closed {
            condition.wait()
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

    /// Lets the workers finish the queued jobs and then stop.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
