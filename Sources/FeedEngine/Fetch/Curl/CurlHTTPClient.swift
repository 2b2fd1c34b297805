import CCurl
import FeedKit
import Foundation

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
    /// A client with 8 worker threads, for the whole process.
    public static let shared = CurlHTTPClient()

    private let queue = CurlWorkQueue()

    /// Starts `workers` threads (at least one): the most transfers that run at once.
    public init(workers: Int = 8) {
        let share = CurlShare()
        for index in 0..<max(1, workers) {
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
            thread.name = "feedwork-curl-\(index)"
            thread.start()
        }
    }

    deinit { queue.close() }

    /// Starts loading libcurl on a thread of its own and returns at once, so that the library (and
    /// the thirty-odd it depends on) loads while the process does other work, such as reading its
    /// config and opening the store, instead of when the first client is made.
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
                if !queue.submit(job) {
                    continuation.resume(
                        returning: .failure(HTTPClientError(.transport("the HTTP client was shut down"))))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
