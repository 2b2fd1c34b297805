import CCurl
import FeedKit
import Foundation
import Synchronization

/// An HTTP client on libcurl with an async API that never blocks Swift's cooperative threads.
///
/// Transfers run on a small pool of dedicated threads, each owning one reused libcurl easy
/// handle; the threads share one pool of kept-alive connections, DNS and TLS sessions
/// (``CurlShare``), so N requests at a time keep N connections whichever threads run them.
/// `perform` suspends until its transfer is done. Redirects are followed up to the request's limit, compressed bodies are
/// decoded, and a body larger than the request's limit aborts the transfer, counted in decoded
/// bytes, which also defends against compression bombs.
///
/// Any HTTP status is a response; only failures to get one are thrown. Use ``shared`` unless
/// you need a separate pool; a client's threads stop when it is released.
public final class CurlHTTPClient: Sendable {
    /// A client of up to 8 transfers at once, for the whole process.
    public static let shared = CurlHTTPClient()

    private let queue: CurlWorkQueue
    /// The pool of connections the workers share, made with the first worker.
    private let share = Mutex<SharedPool>(.notMade)

    private enum SharedPool {
        case notMade
        /// `nil` when libcurl is missing or refused a share: each handle then keeps its own.
        case made(CurlShare?)
    }

    /// A client of at most `workers` transfers at once (at least one).
    ///
    /// Making a client costs nothing: libcurl, the connection pool and the threads come with
    /// the transfers, a thread whenever a transfer would otherwise wait. A command that fetches
    /// nothing never loads libcurl; one that will fetch can load it early with ``preload()``.
    public init(workers: Int = 8) {
        queue = CurlWorkQueue(maxWorkers: workers)
    }

    deinit { queue.close() }

    /// The worker threads the client has started: one per transfer that had to wait for one.
    var workerCount: Int { queue.workerCount }

    /// Starts loading libcurl on a thread of its own and returns at once, so that the library (and
    /// the thirty-odd it depends on) loads while the process does other work, such as reading its
    /// config and opening the store, instead of at the first transfer.
    ///
    /// Call it once the process's first threads exist (in an async command, after its first
    /// suspension point or at the top of `run()`): while the library loads, glibc makes any new
    /// thread wait for it.
    public static func preload() {
        fw_curl_preload()
    }

    /// Performs `request` and returns its final response, whatever its status.
    ///
    /// - Throws: ``HTTPClientError`` when no response was received: timeout, too many redirects,
    ///   a body over the limit, or a connection failure (including a body shorter than declared).
    public func perform(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        let cancellation = CurlCancellation()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, HTTPClientError>, Never>) in
                let job = CurlJob(request: request, cancellation: cancellation) { continuation.resume(returning: $0) }
                switch queue.submit(job) {
                case .queued: break
                case .queuedNeedsWorker: startWorker()
                case .refused:
                    continuation.resume(
                        returning: .failure(HTTPClientError(.transport("the HTTP client was shut down"))))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// Starts a worker thread, with an easy handle of its own on the shared pool, that runs
    /// jobs until the client is released.
    private func startWorker() {
        let share = share.withLock { pool in
            if case .made(let share) = pool { return share }
            let share = CurlShare()
            pool = .made(share)
            return share
        }
        let thread = Thread { [queue] in
            let easy = CurlEasyHandle(share: share)
            while let job = queue.next() {
                guard let easy else {
                    job.complete(.failure(HTTPClientError(.transport(CurlGlobal.failure))))
                    continue
                }
                job.complete(easy.perform(job.request, cancellation: job.cancellation))
            }
        }
        thread.name = "feedwork-curl"
        thread.start()
    }
}
